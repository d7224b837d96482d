import { promisify } from 'node:util';
import { brotliDecompress, constants, gunzip, inflate, inflateRaw } from 'node:zlib';

/**
 * Most bytes a compressed body is decoded to for display. A zip bomb (a few KiB of gzip that
 * expand to gigabytes) stops here: zlib itself refuses to produce more, so memory stays bounded.
 */
export const DECODED_LIMIT = 4 * 1024 * 1024;
/**
 * Most codings undone for one body. Senders apply one; curl accepts at most 5 (a longer chain was
 * CVE-2022-32206). `Content-Encoding: gzip` repeated 3,000 times is refused without decoding any.
 */
export const MAX_CODINGS = 5;
/**
 * Most bytes all the layers of one body may produce together: five layers of 4 MiB each would
 * be 20 MiB of inflating to show one body.
 */
export const DECODE_WORK_LIMIT = 8 * 1024 * 1024;

export type ContentDecoding =
  /** No Content-Encoding, or `identity`: the bytes are the content. */
  | { readonly kind: 'none' }
  | {
      readonly kind: 'decoded';
      /** The codings undone, in the order they were applied, e.g. `gzip`. */
      readonly codings: string;
      readonly bytes: Buffer;
      /** True when the kept body was cut by --max-body, so the decoded content is its start. */
      readonly partial: boolean;
    }
  | { readonly kind: 'failed'; readonly codings: string; readonly reason: string };

type Decoder = (input: Buffer, options: object) => Promise<Buffer>;

const gunzipAsync = promisify(gunzip) as Decoder;
const inflateAsync = promisify(inflate) as Decoder;
const inflateRawAsync = promisify(inflateRaw) as Decoder;
const brotliAsync = promisify(brotliDecompress) as Decoder;

const DECODERS: Record<string, Decoder> = {
  gzip: gunzipAsync,
  'x-gzip': gunzipAsync,
  deflate: inflateDeflate,
  br: brotliAsync,
};

/** The codings a `Content-Encoding` value lists, in the order they were applied. */
export function codingsOf(contentEncoding: string | undefined): string[] {
  if (!contentEncoding) return [];
  return contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/**
 * Undoes a body's `Content-Encoding` (`gzip`, `deflate`, `br`, or a list of them applied in
 * order) for display. The work runs on libuv's thread pool (zlib's asynchronous calls), never on
 * the event loop that answers senders, and is bounded: at most `MAX_CODINGS` codings, `limit`
 * bytes out of each and `DECODE_WORK_LIMIT` out of all of them. Never rejects: an unknown coding,
 * corrupt data or a bound reached comes back as `failed` with the reason. The record's bytes are
 * never changed.
 */
export async function decodeContent(
  body: Buffer,
  contentEncoding: string | undefined,
  truncated = false,
  limit = DECODED_LIMIT,
): Promise<ContentDecoding> {
  const codings = codingsOf(contentEncoding);
  if (codings.length === 0 || body.length === 0) return { kind: 'none' };
  if (codings.length > MAX_CODINGS) {
    return {
      kind: 'failed',
      codings: `${codings.length} codings`,
      reason: `more than ${MAX_CODINGS} codings`,
    };
  }
  const name = codings.join(', ');
  let bytes = body;
  let work = 0;
  // Codings are listed in the order they were applied: undo them last first.
  for (const coding of [...codings].reverse()) {
    const decoder = DECODERS[coding];
    if (!decoder) return { kind: 'failed', codings: name, reason: `unknown coding ${coding}` };
    const room = Math.min(limit, DECODE_WORK_LIMIT - work);
    try {
      bytes = await decoder(bytes, {
        maxOutputLength: Math.max(1, room),
        // A body cut by --max-body ends mid-stream: decode what is there instead of failing.
        ...(truncated ? { finishFlush: flushFor(coding) } : {}),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const over = code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
      let reason = `not valid ${coding} data`;
      if (over && room < limit) reason = `decoding work over ${DECODE_WORK_LIMIT / MiB} MiB`;
      else if (over) reason = `decoded size over ${limit / MiB} MiB`;
      return { kind: 'failed', codings: name, reason };
    }
    work += bytes.length;
  }
  return { kind: 'decoded', codings: name, bytes, partial: truncated };
}

const MiB = 1024 * 1024;

function flushFor(coding: string): number {
  return coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
}

/** `deflate` is meant to be zlib-wrapped, but some senders send raw deflate: accept both. */
async function inflateDeflate(input: Buffer, options: object): Promise<Buffer> {
  try {
    return await inflateAsync(input, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
    return inflateRawAsync(input, options);
  }
}

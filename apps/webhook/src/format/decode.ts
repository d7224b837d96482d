import {
  brotliDecompressSync,
  constants,
  gunzipSync,
  inflateRawSync,
  inflateSync,
} from 'node:zlib';

/**
 * Most bytes a compressed body is decoded to for display. A zip bomb (a few KiB of gzip that
 * expand to gigabytes) stops here: zlib itself refuses to produce more, so memory stays bounded.
 */
export const DECODED_LIMIT = 4 * 1024 * 1024;

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

const DECODERS: Record<string, (input: Buffer, options: object) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateDeflate,
  br: brotliDecompressSync,
};

/**
 * Undoes a body's `Content-Encoding` (`gzip`, `deflate`, `br`, or a list of them applied in
 * order) for display. Never throws: an unknown coding, corrupt data or output over `limit` comes
 * back as `failed` with the reason. The record's bytes are never changed.
 */
export function decodeContent(
  body: Buffer,
  contentEncoding: string | undefined,
  truncated = false,
  limit = DECODED_LIMIT,
): ContentDecoding {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0 || body.length === 0) return { kind: 'none' };
  const name = codings.join(', ');
  let bytes = body;
  // Codings are listed in the order they were applied: undo them last first.
  for (const coding of [...codings].reverse()) {
    const decoder = DECODERS[coding];
    if (!decoder) return { kind: 'failed', codings: name, reason: `unknown coding ${coding}` };
    try {
      bytes = decoder(bytes, {
        maxOutputLength: limit,
        // A body cut by --max-body ends mid-stream: decode what is there instead of failing.
        ...(truncated ? { finishFlush: flushFor(coding) } : {}),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason =
        code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError
          ? `decoded size over ${limit / (1024 * 1024)} MiB`
          : `not valid ${coding} data`;
      return { kind: 'failed', codings: name, reason };
    }
  }
  return { kind: 'decoded', codings: name, bytes, partial: truncated };
}

function flushFor(coding: string): number {
  return coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
}

/** `deflate` is meant to be zlib-wrapped, but some senders send raw deflate: accept both. */
function inflateDeflate(input: Buffer, options: object): Buffer {
  try {
    return inflateSync(input, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
    return inflateRawSync(input, options);
  }
}

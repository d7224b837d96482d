import { isUtf8 } from 'node:buffer';
import type { CapturedRequest } from '../capture/record.js';
import { headerValue, headerValueText, verificationText } from '../capture/record.js';
import type { HeaderPairs } from '../config/types.js';
import { terminalSafeJson } from '../output/json.js';

/** A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/), ready for JSON.stringify. */
export interface HarDocument {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly unknown[];
  };
}

export const HAR_CREATOR = { name: 'webhook', version: '1.0.0' } as const;

const harHeaders = (headers: HeaderPairs) =>
  headers.map(([name, value]) => ({ name, value: headerValueText(value) }));

/** HAR content: text when UTF-8, else base64 (`encoding: "base64"`, as HAR 1.2 allows). */
function content(body: Buffer, mimeType: string) {
  return isUtf8(body)
    ? { size: body.length, mimeType, text: body.toString('utf8') }
    : { size: body.length, mimeType, text: body.toString('base64'), encoding: 'base64' };
}

function headersSize(headers: HeaderPairs): number {
  return headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0) + 2;
}

/**
 * One HAR entry: the request as received; the response is the forward (or replay) target's when
 * there is one, else the one this tool sent; `_webhook` holds what HAR has no field for.
 */
export function harEntry(record: CapturedRequest): unknown {
  const forward = record.forward?.kind === 'response' ? record.forward : null;
  const sent = record.response;
  const response = forward
    ? {
        status: forward.status,
        statusText: forward.statusText,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: harHeaders(forward.headers),
        content: content(forward.body, headerValue(forward.headers, 'content-type') ?? ''),
        redirectURL: headerValue(forward.headers, 'location') ?? '',
        headersSize: headersSize(forward.headers),
        bodySize: forward.size,
      }
    : sent
      ? {
          status: sent.status,
          statusText: '',
          httpVersion: `HTTP/${record.httpVersion}`,
          cookies: [],
          headers: harHeaders(sent.headers),
          content: content(sent.body, headerValue(sent.headers, 'content-type') ?? ''),
          redirectURL: '',
          headersSize: headersSize(sent.headers),
          bodySize: sent.body.length,
        }
      : {
          // HAR requires a response; a record without one (an old file) gets HAR's "none" values.
          status: 0,
          statusText: '',
          httpVersion: '',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        };
  const mimeType = headerValue(record.headers, 'content-type') ?? '';
  const request: Record<string, unknown> = {
    method: record.method,
    url: record.url,
    httpVersion: `HTTP/${record.httpVersion}`,
    cookies: [],
    headers: harHeaders(record.headers),
    queryString: record.query.map(([name, value]) => ({ name, value })),
    headersSize: headersSize(record.headers),
    bodySize: record.size,
  };
  if (record.body.length > 0 || record.size > 0) {
    const body = content(record.body, mimeType);
    request.postData = {
      mimeType,
      text: body.text,
      ...('encoding' in body ? { encoding: body.encoding } : {}),
    };
  }
  const duration =
    record.forward && record.forward.kind !== 'pending' ? record.forward.durationMs : 0;
  return {
    startedDateTime: new Date(record.receivedAt).toISOString(),
    time: duration,
    request,
    response,
    cache: {},
    timings: { send: 0, wait: duration, receive: 0 },
    _webhook: {
      seq: record.seq,
      remote: record.remote,
      truncated: record.truncated,
      ...(record.replayOf !== undefined ? { replayOf: record.replayOf } : {}),
      ...(record.relayedVia !== undefined ? { relayedVia: record.relayedVia } : {}),
      ...(record.verification
        ? { verification: { ...record.verification, text: verificationText(record.verification) } }
        : {}),
      ...(record.forward?.kind === 'failure'
        ? { forwardFailure: { failure: record.forward.failure, message: record.forward.message } }
        : {}),
      ...(forward && sent ? { sentResponse: { status: sent.status } } : {}),
    },
  };
}

/** The records (oldest first) as one HAR log: request, the response sent (or the target's). */
export function toHar(records: readonly CapturedRequest[]): HarDocument {
  return { log: { version: '1.2', creator: HAR_CREATOR, entries: records.map(harEntry) } };
}

/** The start of a HAR document written entry by entry (`harEntryText`, then HAR_END). */
export const HAR_START = `{"log":{"version":"1.2","creator":${JSON.stringify(HAR_CREATOR)},"pages":[],"entries":[`;
export const HAR_END = '\n]}}\n';

/**
 * One entry as text, to follow HAR_START (`index` 0) or the entry before it. A document is never
 * one string: nine bodies of 10 MiB can exceed the longest string JavaScript holds.
 */
export function harEntryText(record: CapturedRequest, index: number): string {
  return `${index === 0 ? '\n' : ',\n'}${terminalSafeJson(harEntry(record))}`;
}

/** The records as a HAR document, piece by piece (what `webhook export --har` writes). */
export function* harPieces(records: Iterable<CapturedRequest>): Generator<string> {
  yield HAR_START;
  let index = 0;
  for (const record of records) {
    yield harEntryText(record, index);
    index += 1;
  }
  yield HAR_END;
}

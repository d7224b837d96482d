import type { CapturedRequest } from '../capture/record.js';

/** A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/), ready for JSON.stringify. */
export interface HarDocument {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly unknown[];
  };
}

/** The records (oldest first) as one HAR log: request, the response sent (or the target's). */
export function toHar(records: readonly CapturedRequest[]): HarDocument {
  void records;
  throw new Error('not implemented');
}

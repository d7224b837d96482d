import type { CapturedRequest } from '../capture/record.js';

export interface CurlExport {
  /** A shell command line reproducing the request byte for byte. */
  readonly command: string;
  /**
   * When the body cannot be written safely in a shell argument (not printable UTF-8), the command
   * reads it with `--data-binary @path`: the caller writes these bytes there.
   */
  readonly bodyFile: { readonly path: string; readonly bytes: Buffer } | null;
}

export interface CurlOptions {
  /** Where a non-printable body goes (default `webhook-<seq>.body`). */
  readonly bodyFilePath?: string;
}

/** The record as a curl command. */
export function toCurl(record: CapturedRequest, options: CurlOptions = {}): CurlExport {
  void record;
  void options;
  throw new Error('not implemented');
}

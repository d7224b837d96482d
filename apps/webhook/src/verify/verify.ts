import type { Verification } from '../capture/record.js';
import type { HeaderPairs, VerifySpec } from '../config/types.js';

/** What a signature covers: the headers (for the signature and timestamp) and the body bytes. */
export interface SignedRequest {
  readonly headers: HeaderPairs;
  readonly body: Buffer;
  /** A truncated body cannot be verified: the signature covers bytes that were not kept. */
  readonly truncated?: boolean;
}

/** Checks the request's signature under `spec`'s scheme and secret, at `nowMs`. */
export function verify(request: SignedRequest, spec: VerifySpec, nowMs = Date.now()): Verification {
  void request;
  void spec;
  void nowMs;
  throw new Error('not implemented');
}

/**
 * The request's headers with the scheme's signature (and timestamp) headers recomputed over
 * `request.body` at `nowMs`: the replaced headers keep their place and case, missing ones are
 * appended. What a re-signed replay sends.
 */
export function sign(request: SignedRequest, spec: VerifySpec, nowMs = Date.now()): HeaderPairs {
  void request;
  void spec;
  void nowMs;
  throw new Error('not implemented');
}

// A replay is re-signed with the real secret only when the request as captured carried a signature
// made with it (or the user edited the body, making it their own request): a forged request that
// failed its check is sent as captured, never turned into a valid one by `r`, `e` or
// `webhook replay --resign`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startCapture } from '../src/app.js';
import { type CapturedRequest, headerValue } from '../src/capture/record.js';
import type { AppConfig, VerifySpec } from '../src/config/types.js';
import { toCurl } from '../src/export/curl.js';
import { requestJson } from '../src/output/json.js';
import { replayRecords } from '../src/replay/command.js';
import { resignRefusal } from '../src/replay/replay.js';
import { createEffects } from '../src/ui/effects.js';
import { sign, verify } from '../src/verify/verify.js';
import { captureConfig, makeRecord } from './helpers.js';
import { startReceiver } from './receiver.js';

const SECRET = 'whsec_the_real_secret';
const spec: VerifySpec = { scheme: 'stripe', secret: SECRET, toleranceSeconds: 300 };
const BODY = '{"id":"evt_1","amount":12.50}';
const FORGED_BODY = '{"id":"evt_1","amount":99999.00}';
const FORGED = 't=1700000000,v1=0000000000000000000000000000000000000000000000000000000000000000';
const signedHeader = (body: string, at = Date.now()) =>
  headerValue(sign({ headers: [], body: Buffer.from(body) }, spec, at), 'stripe-signature') ?? '';

const dir = mkdtempSync(join(tmpdir(), 'webhook-resign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver() {
  const app = await startReceiver((_req, res) => res.end('ok'));
  cleanups.push(() => app.close());
  return app;
}

/** What the receiver saw in Stripe-Signature, and whether it verifies under the real secret. */
const arrived = (app: Awaited<ReturnType<typeof receiver>>, index: number) => {
  const request = app.received[index];
  if (!request) throw new Error(`nothing arrived at ${index}`);
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2)
    headers.push([request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string]);
  return {
    signature: headerValue(headers, 'stripe-signature'),
    valid: verify({ headers, body: request.body }, spec).ok,
    body: request.body.toString(),
  };
};

/** A capture whose /hooks/stripe route verifies, replaying to `replayTo`; two requests captured. */
async function captured(replayTo: string, overrides: Partial<AppConfig> = {}) {
  const capture = await startCapture(
    captureConfig({
      routes: [{ path: '/hooks/stripe', method: null, response: null, verify: spec }],
      replayTo,
      ...overrides,
    }),
  );
  cleanups.push(() => capture.close());
  const post = (body: string, signature: string) =>
    fetch(`${capture.address}/hooks/stripe`, {
      method: 'POST',
      headers: { 'Stripe-Signature': signature, 'Content-Type': 'application/json' },
      body,
    });
  await post(FORGED_BODY, FORGED);
  await post(BODY, signedHeader(BODY));
  const [forged, genuine] = capture.store.snapshot().records as CapturedRequest[];
  if (!forged || !genuine) throw new Error('not captured');
  expect(forged.verification).toMatchObject({ ok: false, reason: 'signature mismatch' });
  expect(genuine.verification).toMatchObject({ ok: true });
  return { capture, forged, genuine };
}

describe('which replays are re-signed', () => {
  it('says why a record is not re-signed, and nothing when it may be', () => {
    const ok = { scheme: 'stripe', ok: true, reason: 'signature valid' } as const;
    const forged = { scheme: 'stripe', ok: false, reason: 'signature mismatch' } as const;
    const stale = {
      scheme: 'stripe',
      ok: false,
      reason: 'timestamp outside tolerance (3600 s)',
    } as const;
    expect(resignRefusal(makeRecord({ verification: ok }))).toBeNull();
    // The signature matched; only its timestamp was already old: the bytes are the sender's.
    expect(resignRefusal(makeRecord({ verification: stale }))).toBeNull();
    const bad = makeRecord({ verification: forged });
    expect(resignRefusal(bad)).toBe(
      `#${bad.seq} failed its signature check when captured (✗ stripe: signature mismatch)`,
    );
    const unchecked = makeRecord();
    expect(resignRefusal(unchecked)).toBe(`#${unchecked.seq} was not verified when captured`);
    // An edited body is the user's own request.
    expect(resignRefusal(bad, { body: Buffer.from('{}') })).toBeNull();
    // Other edits leave the forged body as it was.
    expect(resignRefusal(bad, { method: 'PUT', headers: [] })).not.toBeNull();
  });

  it('replay sends a forged request as captured, re-signs a genuine one, and an edited body', async () => {
    const app = await receiver();
    const { capture, forged, genuine } = await captured(app.url);
    await capture.replay(forged);
    await capture.replay(genuine);
    const edited = await capture.replay(forged, { edits: { body: Buffer.from('{"mine":1}') } });
    // A replay of a replay follows the request first captured.
    await capture.replay(edited);
    const replayOfGenuine = capture.store
      .snapshot()
      .records.find((record) => record.replayOf === genuine.seq) as CapturedRequest;
    await capture.replay(replayOfGenuine);
    expect(arrived(app, 0)).toEqual({ signature: FORGED, valid: false, body: FORGED_BODY });
    expect(arrived(app, 1)).toMatchObject({ valid: true, body: BODY });
    expect(arrived(app, 2)).toMatchObject({ valid: true, body: '{"mine":1}' });
    expect(capture.resignRefusal(forged)).toBe(
      '#1 failed its signature check when captured (✗ stripe: signature mismatch)',
    );
    expect(capture.resignRefusal(genuine)).toBeNull();
    // The replays' own records: what the first captured request's check allows.
    expect(capture.resignRefusal(edited)).toBe(
      '#1 failed its signature check when captured (✗ stripe: signature mismatch)',
    );
    expect(capture.resignRefusal(replayOfGenuine)).toBeNull();
    expect(app.received).toHaveLength(5);
  });

  it('the UI says so in the status bar when r sends a forged request as captured', async () => {
    const app = await receiver();
    const { capture, forged, genuine } = await captured(app.url);
    const effects = createEffects({
      environment: { editor: 'true', clipboard: 'file', directory: dir },
      services: {
        replay: (record, request) => capture.replay(record, request),
        resignRefusal: (record, request) => capture.resignRefusal(record, request),
        curl: toCurl,
        har: () => [],
      },
      writeTerminal: () => {},
      suspend: async (work) => work(),
    });
    const notice = await effects.replay(forged, null, false);
    expect(notice.text).toMatch(
      /^#\d+ replay of #1 → 200 OK in \d+ ms · not re-signed: #1 failed its signature check when captured \(✗ stripe: signature mismatch\)$/,
    );
    expect((await effects.replay(genuine, null, false)).text).not.toContain('re-signed');
    // `e` saved unchanged: no body edit, still not re-signed.
    expect((await effects.replay(forged, null, true)).text).toContain('not re-signed');
    expect(arrived(app, 0).signature).toBe(FORGED);
    expect(arrived(app, 1).valid).toBe(true);
    expect(arrived(app, 2).signature).toBe(FORGED);
  });

  it('webhook replay --all --resign sends a forged record as captured and says so', async () => {
    const app = await receiver();
    const { forged, genuine } = await captured(app.url);
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, `${requestJson(forged)}\n${requestJson(genuine)}\n`);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let errors = '';
    stderr.setEncoding('utf8').on('data', (chunk: string) => {
      errors += chunk;
    });
    stdout.resume();
    const code = await replayRecords(
      {
        kind: 'replay',
        from: file,
        ids: null,
        to: app.url,
        resign: true,
        saveFile: null,
        config: captureConfig({
          routes: [{ path: '/hooks/stripe', method: null, response: null, verify: spec }],
        }),
      },
      stdout,
      stderr,
    );
    expect(code).toBe(0);
    expect(arrived(app, 0)).toEqual({ signature: FORGED, valid: false, body: FORGED_BODY });
    expect(arrived(app, 1)).toMatchObject({ valid: true, body: BODY });
    expect(errors).toContain(
      'webhook: not re-signed: #1 failed its signature check when captured (✗ stripe: signature mismatch); sent as captured\n',
    );
    expect(errors).not.toContain('#2 failed');
    expect(errors.match(/not re-signed/g)).toHaveLength(1);
  });
});

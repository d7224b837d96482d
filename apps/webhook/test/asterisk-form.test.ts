// `OPTIONS *` (the asterisk-form request target) is forwarded and replayed as `OPTIONS *`, or as
// `OPTIONS <base path>` when the target URL has one (it went out as `OPTIONS /*` or `/a*`).
import { afterEach, describe, expect, it } from 'vitest';
import { startCapture } from '../src/app.js';
import type { CapturedRequest } from '../src/capture/record.js';
import { forwardUrl } from '../src/forward/url.js';
import { requestJson } from '../src/output/json.js';
import { replay } from '../src/replay/replay.js';
import { recordFromJson } from '../src/session/session.js';
import { captureConfig, sendRaw, waitFor } from './helpers.js';
import { startReceiver } from './receiver.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('OPTIONS *', () => {
  it('forwardUrl keeps the asterisk for an origin, the base path for a base URL', () => {
    expect(forwardUrl('http://127.0.0.1:3000', null, '*')).toBe('http://127.0.0.1:3000*');
    expect(forwardUrl('http://127.0.0.1:3000/', null, '*')).toBe('http://127.0.0.1:3000*');
    expect(forwardUrl('http://127.0.0.1:3000/a', null, '*')).toBe('http://127.0.0.1:3000/a');
  });

  it('reaches a real receiver as OPTIONS *, or OPTIONS /a, when forwarded and replayed', async () => {
    const app = await startReceiver();
    cleanups.push(() => app.close());
    for (const base of [app.url, `${app.url}/`, `${app.url}/a`]) {
      const capture = await startCapture(
        captureConfig({
          forward: { defaultTarget: base, timeoutMs: 2000, respondWithForward: false },
        }),
      );
      cleanups.push(() => capture.close());
      const completed: CapturedRequest[] = [];
      capture.onRecord((record) => completed.push(record));
      const port = Number(new URL(capture.address).port);
      await sendRaw(port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      await waitFor(() => completed.length === 1);
      const record = completed[0] as CapturedRequest;
      expect(record.forward).toMatchObject({ kind: 'response', status: 201 });
      const replayed = await replay(record, { to: base });
      expect(replayed.forward).toMatchObject({ kind: 'response', status: 201 });
    }
    expect(app.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'OPTIONS *',
      'OPTIONS *',
      'OPTIONS *',
      'OPTIONS *',
      'OPTIONS /a',
      'OPTIONS /a',
    ]);
  });

  it('records a parseable target URL and the request target sent (*) in --json and --save', async () => {
    const app = await startReceiver();
    cleanups.push(() => app.close());
    const capture = await startCapture(
      captureConfig({
        forward: { defaultTarget: app.url, timeoutMs: 2000, respondWithForward: false },
      }),
    );
    cleanups.push(() => capture.close());
    const completed: CapturedRequest[] = [];
    capture.onRecord((record) => completed.push(record));
    await sendRaw(
      Number(new URL(capture.address).port),
      'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    await waitFor(() => completed.length === 1);
    const line = requestJson(completed[0] as CapturedRequest);
    const forward = JSON.parse(line).forward;
    expect(forward).toMatchObject({ target: app.url, requestTarget: '*', status: 201 });
    expect(new URL(forward.target).origin).toBe(app.url);
    // And back from a saved file, or from one saved before requestTarget (target http://host*).
    expect(recordFromJson(line).draft.forward).toMatchObject({
      target: app.url,
      requestTarget: '*',
    });
    const older = JSON.parse(line);
    older.forward.target = `${app.url}*`;
    delete older.forward.requestTarget;
    expect(recordFromJson(JSON.stringify(older)).draft.forward).toMatchObject({
      target: app.url,
      requestTarget: '*',
    });
  });
});

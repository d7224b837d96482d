// The detail pane's URL line decodes the Host header as its Headers section does (UTF-8 when the
// bytes are valid UTF-8), with the same stand-ins: U+202E (a bidi override) is shown as <U+202E>.
import { describe, expect, it } from 'vitest';
import { RunningCli, sendRaw, startUiInTmux, waitFor } from './helpers.js';

const EVIL_HOST = Buffer.from('Host: ev\u202eil\r\n', 'utf8').toString('latin1');
const request = `GET /x HTTP/1.1\r\n${EVIL_HOST}Connection: close\r\n\r\n`;

describe('a Host header in UTF-8', { timeout: 60_000 }, () => {
  it('--json: the url holds the decoded host', async () => {
    const cli = new RunningCli(['--json', '--port', '0']);
    try {
      const port = Number(new URL(await cli.address()).port);
      await sendRaw(port, Buffer.from(request, 'latin1'));
      await waitFor(
        () => cli.stdout.includes('\n'),
        () => cli.stdout,
      );
      expect(JSON.parse(cli.stdout).url).toBe('http://ev\u202eil/x');
    } finally {
      await cli.stop();
    }
  });

  it('the UI shows the URL line as the Headers section shows Host', async () => {
    const { pane, address, stop } = await startUiInTmux('webhook-host', 120, 14);
    try {
      const port = Number(new URL(address).port);
      await sendRaw(port, Buffer.from(request, 'latin1'));
      await waitFor(() => /1 kept \/ 1 seen/.test(pane()) && /Host:/.test(pane()), pane);
      expect(pane()).toContain('Host: ev<U+202E>il');
      expect(pane()).toContain('GET http://ev<U+202E>il/x');
    } finally {
      stop();
    }
  });
});

/**
 * The ceiling: a bare `node:http` server answering every request with a fixed JSON body of the
 * size of a `GET /api/v1/me` answer. What one Node.js process on this machine can serve to the
 * same load generator, so the service's figures read as fractions of it. Prints `{"url": ...}`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = Buffer.from(process.env.CEILING_BODY ?? '{"success":true}');
const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  });
  response.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

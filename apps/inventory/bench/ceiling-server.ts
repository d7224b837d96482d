import { createServer } from 'node:http';

/**
 * The ceiling: a bare node:http server answering every request with a precomputed body of the
 * size the real API answers the same scenario with. What it reaches on this machine with this
 * load generator is the most any HTTP service in Node could; the API's figures are read as a
 * fraction of it. Run as a child process by processes.ts and told the body over IPC.
 */

let status = 200;
let body = Buffer.from('{}');

const server = createServer((request, response) => {
  // Read the request body as the API must before answering (PATCH, POST).
  request.on('data', () => {});
  request.on('end', () => {
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    });
    response.end(body);
  });
});

process.on('message', (message: { status: number; body: string }) => {
  status = message.status;
  body = Buffer.from(message.body);
  process.send?.('ok');
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ url: `http://127.0.0.1:${port}` });
});

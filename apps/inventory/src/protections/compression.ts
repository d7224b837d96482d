import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fp from 'fastify-plugin';

export interface CompressionOptions {
  /** Bodies smaller than this many bytes are sent as they are (default 1 KiB). */
  threshold?: number | undefined;
}

export const DEFAULT_COMPRESSION_THRESHOLD = 1024;

/**
 * Brotli or gzip (the client's preference from Accept-Encoding, brotli on a tie), for bodies of
 * at least `threshold` bytes: below that, headers outweigh the saving. Brotli runs at quality 4,
 * not its default 11: close to gzip's speed with smaller output, where 11 would cost far more CPU
 * per response than it saves on the wire. Compressed request bodies are inflated too, and the
 * body limit applies to the inflated size (no zip bombs).
 */
export const compression = fp<CompressionOptions>(
  async (app, options) => {
    // Content codings are case-insensitive (RFC 9110 §8.4.1), but the plugin compares the
    // header as sent: `Content-Encoding: GZIP` was 415.
    app.addHook('onRequest', (request, _reply, done) => {
      const coding = request.headers['content-encoding'];
      if (typeof coding === 'string')
        request.headers['content-encoding'] = coding.trim().toLowerCase();
      done();
    });
    await app.register(fastifyCompress, {
      encodings: ['br', 'gzip'],
      threshold: options.threshold ?? DEFAULT_COMPRESSION_THRESHOLD,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'inventory-protections/compression', fastify: '5.x' },
);

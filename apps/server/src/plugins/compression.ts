import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';

/** Answers below this many bytes go as they are: compressing them saves less than it costs (ADR 0040). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Text the browser reads (JSON, HTML, CSS, JavaScript, SVG, plain text). Not octet-stream: order files
 * and other downloads keep their bytes and their Content-Length.
 */
const COMPRESSIBLE =
  /^(?:application\/(?:[a-z0-9.+-]+\+)?json|text\/(?!event-stream)[a-z-]+|application\/javascript|image\/svg\+xml)(?:;|$)/i;

/**
 * Brotli or gzip for every answer of the routes registered after this, when the browser accepts it and
 * the answer is at least 1 KiB: the wizard's catalogues and price tables, the order lists, the pages.
 * Built files are compressed once at build time (.br, .gz) and served as such by @fastify/static; a
 * reply that already has a Content-Encoding passes through. Requests are not decompressed.
 */
export const registerCompression = async (app: FastifyInstance): Promise<void> => {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
  });
};

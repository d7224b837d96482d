/** Where the API reference is served; a module of its own so the start-up's first line needs no Fastify. */
export const DOCS_PREFIX = '/docs';
export const OPENAPI_PATH = '/openapi.json';

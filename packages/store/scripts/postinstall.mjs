// `npm install` / `npm ci`: makes the embedded store's template cluster once (PGlite's initdb,
// about 20 s and 900 MB of memory), so that a service's first start copies it in a second
// instead. Never fails the install: without a template, the first start makes it.
const started = Date.now();
let store;
try {
  // A clone (dev dependencies installed): the TypeScript source through tsx.
  const { register } = await import('tsx/esm/api');
  register();
  store = await import('../src/embedded.ts');
} catch {
  try {
    store = await import('../dist/embedded.js');
  } catch {
    console.log(
      '@netops/store: not built yet; the embedded database template is made at first start',
    );
    process.exit(0);
  }
}
try {
  if (store.holdsEmbeddedDatabase(store.embeddedTemplateDir() ?? '')) process.exit(0);
  console.log('@netops/store: preparing the embedded database template (once per install)…');
  const template = await store.prepareEmbeddedTemplate();
  console.log(
    template
      ? `@netops/store: template ready in ${template} (${Math.round((Date.now() - started) / 1000)} s)`
      : '@netops/store: could not write the template; the first start will run initdb instead',
  );
} catch (error) {
  console.log(
    `@netops/store: template not made (${error?.message ?? error}); the first start will make it`,
  );
}

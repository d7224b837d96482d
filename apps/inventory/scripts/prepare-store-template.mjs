// `npm install` / `npm ci`, after the build (the root's postinstall): makes the embedded store's
// template holding the inventory's migrated schema, so that a first start on a new DATA_DIR copies
// it and applies no migration (applying them costs several seconds of CPU and the first start's
// peak memory). Made once per set of migrations: a new migration makes a new template at the next
// install, and until then a first start copies the previous one and applies only the new
// migration. Never fails the install: without this template the first start applies every
// migration, as it did before.
import { fileURLToPath } from 'node:url';

const MIGRATIONS = fileURLToPath(new URL('../src/db/migrations/', import.meta.url));
const started = Date.now();
try {
  const { prepareMigratedTemplate } = await import('@netops/store');
  const template = await prepareMigratedTemplate(MIGRATIONS);
  console.log(
    template
      ? `@netops/inventory: migrated database template ready (${((Date.now() - started) / 1000).toFixed(1)} s)`
      : '@netops/inventory: could not write the migrated template; a first start applies every migration',
  );
} catch (error) {
  console.log(
    `@netops/inventory: migrated template not made (${error?.message ?? error}); a first start applies every migration`,
  );
}

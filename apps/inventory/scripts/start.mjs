// `npm start`: the compiled service (dist/main.js), which `npm install` built once (the root's
// postinstall). Compiled, the service starts in about a second and holds some 80 MB less than
// its TypeScript sources run through tsx. Sources changed since that build (a developer's edit, a
// `git pull`) are built again first, so `npm start` never runs stale code; `npm run inventory`
// runs the sources through tsx instead.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The workspaces the service is built from, in build order, and the file each build writes. */
const WORKSPACES = [
  ['packages/store', 'dist/index.js'],
  ['packages/service-runtime', 'dist/index.js'],
  ['apps/inventory', 'dist/main.js'],
];

function newestUnder(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
    }
  }
  return newest;
}

function builtAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

const stale = WORKSPACES.filter(
  ([workspace, output]) =>
    builtAt(`${ROOT}${workspace}/${output}`) < newestUnder(`${ROOT}${workspace}/src`),
).map(([workspace]) => workspace);
if (stale.length > 0) {
  process.stdout.write(`Building ${stale.join(', ')} (sources newer than the last build)…\n`);
  const build = spawnSync(
    'npm',
    ['run', 'build', '--silent', ...stale.flatMap((workspace) => ['-w', workspace])],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) {
    process.stderr.write('The build failed; `npm run inventory` runs the sources without it.\n');
    process.exit(1);
  }
}
await import('../dist/main.js');

#!/usr/bin/env node
// The `webhook` command. Runs the compiled CLI (dist/, made by `npm run build`) when it is at least
// as new as every source file; otherwise the TypeScript sources through tsx (a dev dependency of
// the repository), so `npx webhook` works in a fresh clone and never runs a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
const sources = new URL('../src/', import.meta.url);

/** Newest modification time of any file under `dir`. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      latest = Math.max(
        latest,
        statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs,
      );
    }
  }
  return latest;
}

const useBuild =
  existsSync(built) && (!existsSync(sources) || statSync(built).mtimeMs >= newest(sources));
if (useBuild) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli.ts', import.meta.url).href);
}

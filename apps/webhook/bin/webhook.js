#!/usr/bin/env node
// The `webhook` command. Runs the compiled CLI when `npm run build` has made it, otherwise the
// TypeScript sources through tsx (a dev dependency of the repository), so `npx webhook` works in a
// fresh clone without a build step. `npm install -g` should follow a build: see the README.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli.ts', import.meta.url).href);
}

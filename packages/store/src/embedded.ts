import { randomBytes } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { migrationKeys } from './migrate.js';

/**
 * The embedded store's folder on the host: how it is created (from a template made at install)
 * and how its writes reach stable storage.
 *
 * Durability. PGlite is PostgreSQL compiled to WebAssembly; its files live on the host through
 * Emscripten's NODEFS, whose streams have no `fsync`: PostgreSQL's fsync() returns success
 * without touching the disk (and its fdatasync() is a no-op in Emscripten's syscall layer), and
 * PGlite starts PostgreSQL with `-F` (fsync=off) anyway. A committed transaction was therefore
 * only in the operating system's cache: safe from a process kill, not from a power loss or a
 * kernel crash. DurableNodeFS gives NODEFS an `fsync` that calls the host's fdatasync (WAL
 * segments, whose size PostgreSQL fixes in advance) or fsync (every other file and directory),
 * and the store runs PostgreSQL with fsync=on and wal_sync_method=fsync (the method that goes
 * through that stream operation). A COMMIT then returns only after its WAL record is on stable
 * storage, as on a PostgreSQL server with its default settings; checkpoints flush data files
 * and directories the same way.
 */
export class DurableNodeFS extends NodeFS {
  override async init(
    pg: Parameters<NodeFS['init']>[0],
    options: Parameters<NodeFS['init']>[1],
  ): ReturnType<NodeFS['init']> {
    const result = await super.init(pg, options);
    const preRun = (result.emscriptenOpts.preRun ?? []) as Array<(module: unknown) => void>;
    result.emscriptenOpts.preRun = [...preRun, (module) => addFsync(module as EmscriptenModule)];
    return result;
  }
}

/** The part of Emscripten's module the fsync patch touches (not in PGlite's typings). */
interface EmscriptenModule {
  NODEFS: {
    stream_ops: { fsync?: (stream: NodeFsStream) => number };
    realPath(node: unknown): string;
    /** Runs a host call, turning a Node error into the errno the C code sees. */
    tryFSOperation<T>(operation: () => T): T;
  };
}

interface NodeFsStream {
  nfd: number;
  node: unknown;
}

function addFsync(module: EmscriptenModule): void {
  const { NODEFS } = module;
  NODEFS.stream_ops.fsync = (stream) => {
    // A host error (EIO: the disk failed the flush) reaches PostgreSQL as an errno, and
    // PostgreSQL PANICs rather than pretend the data is safe (data_sync_retry=off).
    const path = NODEFS.realPath(stream.node);
    NODEFS.tryFSOperation(() =>
      path.includes('/pg_wal/') ? fdatasyncSync(stream.nfd) : fsyncSync(stream.nfd),
    );
    return 0;
  };
}

/**
 * PostgreSQL's settings for a durable embedded store: PGlite's defaults without `-F`, with the
 * WAL flushed at every commit through the patched fsync.
 */
export function durableStartParams(): string[] {
  return [
    ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
    '-c',
    'fsync=on',
    '-c',
    'wal_sync_method=fsync',
    '-c',
    'synchronous_commit=on',
  ];
}

/** Whether `dataDir` already holds a database cluster. */
export function holdsEmbeddedDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

function pgliteFolder(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    let folder = dirname(require.resolve('@electric-sql/pglite'));
    while (!existsSync(join(folder, 'package.json'))) {
      const parent = dirname(folder);
      if (parent === folder) return undefined;
      folder = parent;
    }
    return folder;
  } catch {
    return undefined;
  }
}

export function pgliteVersion(): string {
  const folder = pgliteFolder();
  if (folder === undefined) return 'unknown';
  try {
    return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version as string;
  } catch {
    return 'unknown';
  }
}

/**
 * Where the template cluster lives: `node_modules/.cache/netops-store/pglite-<version>-one-database`,
 * next to the PGlite that made it (a new PGlite version gets a new template), or undefined when
 * PGlite's own folder cannot be found. `one-database` (TEMPLATE_DATABASES dropped): a template
 * made before that, with the old name, is never used.
 */
export function embeddedTemplateDir(): string | undefined {
  const folder = pgliteFolder();
  if (folder === undefined) return undefined;
  // node_modules/@electric-sql/pglite -> node_modules
  const nodeModules = dirname(dirname(folder));
  return join(nodeModules, '.cache', 'netops-store', `pglite-${pgliteVersion()}-one-database`);
}

/**
 * The databases initdb makes for CREATE DATABASE to copy, dropped from the template cluster: an
 * embedded store is one database, `postgres`, and never creates another. Each holds its own copy
 * of the system catalogs, 300 files; together, half of the 1,160 files a new folder copies from
 * the template (createFromTemplate), where creating a file can cost a millisecond (it does on the
 * machines the first start is measured on).
 */
const TEMPLATE_DATABASES = ['template1', 'template0'] as const;

/**
 * Makes the template cluster once (PGlite's initdb: about 20 s and 900 MB of memory, which is why
 * it runs at install, not at a first start). Returns its folder, or undefined when it cannot be
 * made (no writable cache folder). Safe to run concurrently: each maker works in a folder of its
 * own and renames it into place.
 */
export async function prepareEmbeddedTemplate(): Promise<string | undefined> {
  const template = embeddedTemplateDir();
  if (template === undefined) return undefined;
  if (holdsEmbeddedDatabase(template)) return template;
  const partial = `${template}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(dirname(template), { recursive: true });
    const pglite = await PGlite.create({ dataDir: partial });
    try {
      for (const database of TEMPLATE_DATABASES) {
        await pglite.exec(`ALTER DATABASE ${database} IS_TEMPLATE false`);
        await pglite.exec(`DROP DATABASE ${database}`);
      }
    } finally {
      await pglite.close();
    }
    try {
      renameSync(partial, template);
    } catch (error) {
      // Another process finished first: its template is as good.
      if (!holdsEmbeddedDatabase(template)) throw error;
      rmSync(partial, { recursive: true, force: true });
    }
    return template;
  } catch {
    rmSync(partial, { recursive: true, force: true });
    return undefined;
  }
}

/**
 * Where the template holding the schema of the migrations up to the one keyed `key` lives (see
 * migrationKeys): beside the initdb template, so it goes with the PGlite that made it.
 */
function migratedTemplateDir(key: string): string | undefined {
  const template = embeddedTemplateDir();
  // 32 hex digits (128 bits) of the key keep the folder name short and collisions out of reach.
  return template === undefined ? undefined : `${template}-schema-${key.slice(0, 32)}`;
}

/**
 * The template to create a new folder from for the migrations in `migrations`: the one holding
 * the most of them (all of them once made at install; after a new migration, the one made before
 * it, and the migrator applies the rest), else the bare initdb template. Undefined when there is
 * neither.
 */
export function bestTemplateFor(migrations: string | URL | undefined): string | undefined {
  const keys = migrations === undefined ? [] : migrationKeys(migrations);
  for (let i = keys.length - 1; i >= 0; i--) {
    const template = migratedTemplateDir(keys[i]?.key ?? '');
    if (template !== undefined && holdsEmbeddedDatabase(template)) return template;
  }
  const bare = embeddedTemplateDir();
  return bare !== undefined && holdsEmbeddedDatabase(bare) ? bare : undefined;
}

/**
 * Makes the template holding the schema of every migration in `migrations`, unless it exists:
 * a copy of the best existing template (see bestTemplateFor) to which `applyMigrations` applies
 * the rest. Made at install, where the time it takes (the migrations' own) is paid once, not at
 * every new folder's first start. Only the schema: data a service seeds at its start (accounts,
 * their passwords) is not in a migration and never in a template. Templates it supersedes (made
 * from fewer of the same migrations) are removed. Returns its folder, or undefined when it cannot
 * be made (no writable cache folder, no initdb template). Safe to run concurrently, as
 * prepareEmbeddedTemplate.
 */
export async function prepareMigratedTemplateWith(
  migrations: string | URL,
  applyMigrations: (dataDir: string) => Promise<void>,
): Promise<string | undefined> {
  const keys = migrationKeys(migrations);
  const last = keys.at(-1);
  if (last === undefined) return prepareEmbeddedTemplate();
  const template = migratedTemplateDir(last.key);
  if (template === undefined) return undefined;
  if (holdsEmbeddedDatabase(template)) return template;
  const base = bestTemplateFor(migrations) ?? (await prepareEmbeddedTemplate());
  if (base === undefined) return undefined;
  const partial = `${template}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    cpSync(base, partial, { recursive: true });
    await applyMigrations(partial);
    try {
      renameSync(partial, template);
    } catch (error) {
      if (!holdsEmbeddedDatabase(template)) throw error;
      rmSync(partial, { recursive: true, force: true });
    }
  } catch {
    rmSync(partial, { recursive: true, force: true });
    return undefined;
  }
  for (const { key } of keys.slice(0, -1)) {
    const superseded = migratedTemplateDir(key);
    if (superseded !== undefined) rmSync(superseded, { recursive: true, force: true });
  }
  return template;
}

/**
 * Creates the cluster in `dataDir` by copying `template` (see bestTemplateFor), so that a first
 * start takes seconds and little memory instead of PGlite's initdb and every migration. Files the
 * folder already holds (the inventory's generated `jwt-secret`) stay. PG_VERSION, the mark of a
 * cluster, is copied last: a copy cut short is redone at the next start. With `durable`, every
 * copied file and folder is flushed first: later commits flush only the WAL, which assumes the
 * cluster's files are already on stable storage.
 */
export function createFromTemplate(dataDir: string, durable: boolean, template: string): void {
  mkdirSync(dataDir, { recursive: true });
  cpSync(template, dataDir, {
    recursive: true,
    force: true,
    filter: (source) => source !== join(template, 'PG_VERSION'),
  });
  if (durable) syncTree(dataDir);
  cpSync(join(template, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
  if (durable) {
    syncPath(join(dataDir, 'PG_VERSION'));
    syncPath(dataDir);
    syncPath(dirname(dataDir));
  }
}

function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsync of every file, then of every folder, under `root`. */
function syncTree(root: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) syncTree(path);
    else if (entry.isFile()) syncPath(path);
  }
  syncPath(root);
}

/** PGlite's options for a folder on the host, durable or not. */
export function embeddedOptions(
  dataDir: string,
  durable: boolean,
  settings: readonly string[],
): Pick<PGliteOptions, 'fs' | 'dataDir' | 'startParams'> {
  return durable
    ? { fs: new DurableNodeFS(dataDir), startParams: [...durableStartParams(), ...settings] }
    : { dataDir, startParams: [...PGlite.defaultStartParams, ...settings] };
}

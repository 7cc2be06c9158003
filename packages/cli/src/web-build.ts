// Builds the services' web UIs with Vite, each only when its sources changed since the last build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { PACKAGES_DIR } from './services.ts';
import { BuildError } from './build-error.ts';

/** Services that have a web UI (`packages/<name>/web`). */
export const WEB_UI_SERVICES = ['sms', 'flows', 'tickets'] as const;

const HASH_FILE = '.source-hash';
const REPO_DIR = join(PACKAGES_DIR, '..');

/** The UI's Vite root, `packages/<name>/web`. */
export function webUiRoot(name: string): string {
  return join(PACKAGES_DIR, name, 'web');
}

/** Where the built UI goes and the service serves it from: `packages/<name>/dist/web`. */
export function webUiOutput(name: string): string {
  return join(PACKAGES_DIR, name, 'dist', 'web');
}

function filesUnder(dir: string, into: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, into);
    else if (entry.isFile()) into.push(path);
  }
}

/**
 * A hash of everything the UI's build reads: its own sources, the shared kit,
 * the service's pure domain rules it runs in the browser (the flow builder's
 * validation) with core's error catalogue under them, and the lockfile (a
 * dependency upgrade rebuilds). Names and contents both count.
 */
export function webUiSourceHash(name: string): string {
  const files: string[] = [];
  filesUnder(webUiRoot(name), files);
  filesUnder(join(PACKAGES_DIR, 'web-kit'), files);
  filesUnder(join(PACKAGES_DIR, name, 'src', 'domain'), files);
  files.push(join(PACKAGES_DIR, 'core', 'src', 'errors.ts'));
  files.push(join(REPO_DIR, 'package-lock.json'));
  files.sort();
  // The build's own settings count too: a build made before they changed is not reused.
  const hash = createHash('sha256').update('production build, NODE_ENV forced\0');
  for (const file of files) {
    if (!existsSync(file) || !statSync(file).isFile()) continue;
    hash.update(relative(REPO_DIR, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Whether `dist/web` holds a build of the current sources. */
export async function webUiUpToDate(name: string, sourceHash = webUiSourceHash(name)): Promise<boolean> {
  const output = webUiOutput(name);
  if (!existsSync(join(output, 'index.html'))) return false;
  try {
    return (await readFile(join(output, HASH_FILE), 'utf8')).trim() === sourceHash;
  } catch {
    return false;
  }
}

/**
 * Builds one UI unless its build is up to date; answers whether it built. The
 * build goes to a temporary directory that replaces `dist/web` in two renames,
 * so a running service never serves half a build.
 */
export async function buildWebUi(name: string, options: { force?: boolean } = {}): Promise<boolean> {
  if (!existsSync(join(webUiRoot(name), 'index.html'))) return false;
  const sourceHash = webUiSourceHash(name);
  if (!options.force && (await webUiUpToDate(name, sourceHash))) return false;
  const output = webUiOutput(name);
  const temporary = `${output}.build-${process.pid}`;
  const previous = `${output}.old-${process.pid}`;
  const { build } = await import('vite');
  // Vite bakes process.env.NODE_ENV into the bundle. Under vitest (whose global setup builds the UIs) it is
  // "test", which shipped React's development build: twice the bytes and several times slower.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(webUiRoot(name), 'vite.config.ts'),
      mode: 'production',
      logLevel: 'error',
      build: { outDir: temporary, emptyOutDir: true },
    });
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw new BuildError(`build error (${name} web UI): ${(error as Error).message.split('\n')[0]}`);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  await writeFile(join(temporary, HASH_FILE), `${sourceHash}\n`);
  await mkdir(join(output, '..'), { recursive: true });
  if (existsSync(output)) await rename(output, previous);
  await rename(temporary, output);
  await rm(previous, { recursive: true, force: true });
  return true;
}

/** Builds the UIs of the given services that have one (each only when changed); answers the names built. */
export async function buildWebUis(names: readonly string[]): Promise<string[]> {
  const built: string[] = [];
  // One at a time: two Vite builds side by side on two cores take as long and need twice the memory.
  for (const name of names) {
    if (!(WEB_UI_SERVICES as readonly string[]).includes(name)) continue;
    if (await buildWebUi(name)) built.push(name);
  }
  return built;
}

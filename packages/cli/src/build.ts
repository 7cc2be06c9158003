// `tsx packages/cli/src/build.ts [SERVICE…]`: bundles the services with esbuild into packages/<name>/dist/main.mjs,
// and builds their web UIs with Vite into packages/<name>/dist/web when their sources changed (web-build.ts).
// Services run from their bundle with plain `node`: tsx's loader hooks (a worker thread and a
// per-module transform) cost about 60 MB of memory in every long-running service process.
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop, type Message, type OutputFile, type Plugin } from 'esbuild';
import { PACKAGES_DIR, SERVICE_NAMES, serviceMain } from './services.ts';
import { buildWebUis } from './web-build.ts';
import { BuildError } from './build-error.ts';

export { BuildError };

/** Path of a service's bundle (what `npm start` and the benchmarks run). */
export function serviceBundle(name: string): string {
  return join(PACKAGES_DIR, name, 'dist', 'main.mjs');
}

/**
 * Keeps every npm package external, so it loads from node_modules exactly as
 * under tsx (CommonJS packages, native modules, files read relative to the
 * package); only the workspace packages (TypeScript sources) go into the bundle.
 * npm workspaces hoist dependencies to the root node_modules, so a bare
 * import resolves to the same copy from dist/ as from src/; one that npm
 * nested under a workspace package instead (the lockfile keeps
 * `@fastify/cookie` in packages/core/node_modules) is imported by the path of
 * its file relative to the bundle, which dist/ could not find by name.
 */
function externalNpmPackages(outfile: string): Plugin {
  return {
    name: 'external-npm-packages',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('@switchboard/')
          ? undefined
          : { path: nestedPackageImport(args.path, args.resolveDir, dirname(outfile)) ?? args.path, external: true },
      );
    },
  };
}

/** The relative import of a package that is installed under a workspace package, not at the root; undefined for the others. */
function nestedPackageImport(specifier: string, fromDir: string, outDir: string): string | undefined {
  if (isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  for (let dir = fromDir; dir.startsWith(PACKAGES_DIR); dir = dirname(dir)) {
    if (!existsSync(join(dir, 'node_modules', name))) continue;
    let file: string;
    try {
      file = createRequire(join(fromDir, 'importer.js')).resolve(specifier);
    } catch {
      // An ESM-only package (no "require" export): left to resolve by name.
      return undefined;
    }
    const path = relative(outDir, file).split(sep).join('/');
    return path.startsWith('.') ? path : `./${path}`;
  }
  return undefined;
}

function formatMessage(message: Message): string {
  const where = message.location ? `${message.location.file}:${message.location.line}:${message.location.column}: ` : '';
  return `${where}${message.text}`;
}

/**
 * Bundles `entry` (TypeScript, ESM) into `outfile` with a linked source map
 * (`outfile.map`). Each file is written under a temporary name and renamed, so
 * a process starting the bundle meanwhile never reads half a file.
 */
export async function bundle(entry: string, outfile: string): Promise<void> {
  let outputFiles: OutputFile[];
  try {
    ({ outputFiles } = await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      plugins: [externalNpmPackages(outfile)],
      logLevel: 'silent',
      write: false,
    }));
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors ?? [];
    const first = errors[0] ? formatMessage(errors[0]) : (error as Error).message;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more errors)` : '';
    throw new BuildError(`build error: ${first}${more}`);
  }
  await mkdir(dirname(outfile), { recursive: true });
  for (const file of outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
}

/** Bundles one service's `src/main.ts` into `dist/main.mjs`; returns the bundle's path. */
async function buildService(name: string): Promise<string> {
  const outfile = serviceBundle(name);
  await bundle(serviceMain(name), outfile);
  return outfile;
}

/**
 * Bundles the given services side by side and stops esbuild's helper process,
 * so a long-running caller (the launcher) does not keep it; returns the
 * bundles' paths in the same order.
 */
export async function buildServices(names: readonly string[]): Promise<string[]> {
  try {
    return await Promise.all(names.map((name) => buildService(name)));
  } finally {
    await stop();
  }
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const unknown = names.find((name) => !(SERVICE_NAMES as readonly string[]).includes(name));
  if (unknown) {
    process.stderr.write(`build error: unknown service "${unknown}" (one of ${SERVICE_NAMES.join(', ')})\n`);
    process.exit(1);
  }
  try {
    const selected = names.length ? names : SERVICE_NAMES;
    await buildServices(selected);

    const built = await buildWebUis(selected);
    if (built.length) process.stdout.write(`built the web UI of ${built.join(', ')}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof BuildError ? error.message : `build error: ${(error as Error).message}`}\n`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

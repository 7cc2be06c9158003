// The monorepo's layout rules (STYLE.md, "Applied to this repo"), checked on the sources as they stand.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGES_DIR } from '../src/services.ts';

const SERVICES = ['sms', 'flows', 'tickets'];
/** Layers of a service's server code that are transports or storage: the domain reaches none of them. */
const OUTER_LAYERS = ['store', 'http', 'mcp', 'engine', 'service', 'worker', 'tools', 'events'];

function sourceFiles(dir: string, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, into);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) into.push(path);
  }
  return into;
}

/** Every package's sources (server and UI), tests left out. */
function allSources(): string[] {
  return readdirSync(PACKAGES_DIR).flatMap((name) =>
    ['src', 'web/src'].flatMap((part) => {
      try {
        return sourceFiles(join(PACKAGES_DIR, name, part));
      } catch {
        return [];
      }
    }),
  );
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;'"]*?from\s+['"]([^'"]+)['"]/g;

/** The relative imports of a file, resolved to absolute paths (type-only imports count: they tie files together all the same). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((match) => match[1])
    .filter((target) => target.startsWith('.'))
    .map((target) => resolve(dirname(file), target));
}

const rel = (file: string) => relative(PACKAGES_DIR, file);

describe('the layout of the sources', () => {
  const files = allSources();

  it('has no import circle', () => {
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].map(rel).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });

  it("keeps each service's domain free of storage and transports, and its operations free of transports", () => {
    const breaks: string[] = [];
    for (const service of SERVICES) {
      const src = join(PACKAGES_DIR, service, 'src');
      for (const file of files.filter((f) => f.startsWith(src))) {
        const layer = relative(src, file).split('/')[0];
        for (const target of importsOf(file)) {
          const targetLayer = relative(src, target).split('/')[0];
          if (layer === 'domain' && OUTER_LAYERS.includes(targetLayer)) breaks.push(`${rel(file)} → ${rel(target)}`);
          if ((layer === 'service' || layer === 'tools') && (targetLayer === 'http' || targetLayer === 'mcp')) breaks.push(`${rel(file)} → ${rel(target)}`);
        }
      }
    }
    expect(breaks).toEqual([]);
  });

  it('has no service import another service', () => {
    const crossings: string[] = [];
    for (const file of files) {
      const own = rel(file).split('/')[0];
      const text = readFileSync(file, 'utf8');
      for (const service of SERVICES)
        if (service !== own && text.includes(`from '@switchboard/${service}`)) crossings.push(`${rel(file)} → @switchboard/${service}`);
    }
    expect(crossings.filter((crossing) => !crossing.startsWith('cli/'))).toEqual([]);
  });

  it('has no source file over 400 lines', () => {
    const long = files.map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').split('\n').length })).filter((entry) => entry.lines > 400);
    expect(long).toEqual([]);
  });
});

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { BuildError, bundle, buildServices, serviceBundle } from '../src/build.ts';
import { SERVICE_NAMES, serviceEnvPrefix, serviceNodeOptions } from '../src/services.ts';
import { ROOT } from './helpers.ts';

/** Runs `node BUNDLE` (no tsx), waits for its URL and returns GET /health; stops it afterwards. */
async function healthOfBundle(file: string, env: Record<string, string>): Promise<{ status: number; body: string }> {
  const child = spawn(process.execPath, [file], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/[\w.:]+)/.exec(output);
        if (match) resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`${file} exited with ${code}:\n${output}`)));
    });
    const response = await fetch(`${url}/health`);
    return { status: response.status, body: await response.text() };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

describe('service bundles', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.cleanup();
  });

  it('bundle the workspace packages and leave every npm package to node_modules', async () => {
    const [file] = await buildServices(['flows']);
    expect(file).toBe(join(ROOT, 'packages/flows/dist/main.mjs'));
    const code = readFileSync(file, 'utf8');
    expect(code).not.toMatch(/["']@switchboard\//);
    expect(code).toContain('from "fastify"');
    expect(code).toContain('import("pdfjs-dist/legacy/build/pdf.mjs")');
    expect(code.trimEnd().split('\n').at(-1)).toBe('//# sourceMappingURL=main.mjs.map');
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources).toContain('../../core/src/config.ts');
    expect(map.sources).toContain('../src/main.ts');
    expect(map.sources.filter((source) => source.includes('node_modules'))).toEqual([]);
  }, 60_000);

  it('run with plain node and answer /health', async () => {
    const database = await createTestDatabase('sqlite');
    databases.push(database);
    const env = { ...database.env, SMS_PORT: '0', FLOWS_PORT: '0', TICKETS_PORT: '0' };
    const files = await buildServices(['sms', 'flows', 'tickets']);
    expect(files).toEqual(['sms', 'flows', 'tickets'].map(serviceBundle));
    expect(await healthOfBundle(files[0], env)).toEqual({ status: 200, body: '{"status":"ok","version":"1.0","database":"ok"}' });
    expect(await healthOfBundle(files[1], env)).toEqual({ status: 200, body: '{"status":"ok","service":"flows","database":"sqlite"}' });
    expect(await healthOfBundle(files[2], env)).toEqual({ status: 200, body: '{"status":"ok","service":"tickets","database":"sqlite"}' });
  }, 120_000);

  it('run from the start:NAME scripts with the node options npm start gives them', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of SERVICE_NAMES) {
      expect(scripts[`start:${name}`]).toBe(
        `tsx packages/cli/src/build.ts ${name} && ${serviceEnvPrefix(name)}${['node', ...serviceNodeOptions(name)].join(' ')} packages/${name}/dist/main.mjs`,
      );
    }
  });

  it('report a build error as one line naming the file and position', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-build-'));
    try {
      const entry = join(dir, 'main.ts');
      writeFileSync(entry, "import { missing } from './missing.ts';\nexport const broken = missing;\n");
      const error = await bundle(entry, join(dir, 'dist', 'main.mjs')).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(BuildError);
      expect((error as BuildError).message).toBe(`build error: ${relative(process.cwd(), entry)}:1:24: Could not resolve "./missing.ts"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuse an unknown service name from the command line with one line and exit 1', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/cli/src/build.ts'), 'sms', 'billing'], { encoding: 'utf8' });
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: 'build error: unknown service "billing" (one of sms, flows, tickets)\n',
    });
  }, 60_000);
});

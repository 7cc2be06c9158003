import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlatformConfig } from '@switchboard/core';
import { registerDeployCommands } from '../../src/commands/deploy.ts';
import { SERVICE_NAMES, serviceEnv, serviceEnvPrefix, serviceNodeOptions } from '../../src/services.ts';
import { ROOT, runInProcess } from '../helpers.ts';

const SYSTEMD_ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((path) => existsSync(path));

/** The command that runs a service: the same as `npm start` and `npm run start:NAME` (packages/cli/src/services.ts). */
const command = (name: string) => [...serviceNodeOptions(name), `packages/${name}/dist/main.mjs`].join(' ');

describe('the deployment files in deploy/', () => {
  it("Procfile runs each service's bundle with the node options npm start gives it", () => {
    const lines = readFileSync(join(ROOT, 'deploy/Procfile'), 'utf8').trim().split('\n');
    expect(lines).toEqual(SERVICE_NAMES.map((name) => `${name}: ${serviceEnvPrefix(name)}node ${command(name)}`));
  });

  it('each systemd unit runs the same command, stops with SIGTERM and waits past the grace period', () => {
    const grace = loadPlatformConfig('sms', { SWITCHBOARD_SECRET: 'x'.repeat(20), DATA_DIR: tmpdir() }).shutdownGraceMs;
    for (const name of SERVICE_NAMES) {
      const unit = readFileSync(join(ROOT, `deploy/systemd/switchboard-${name}.service`), 'utf8');
      const value = (key: string) =>
        unit
          .split('\n')
          .find((line) => line.startsWith(`${key}=`))
          ?.slice(key.length + 1);
      expect(value('ExecStart')).toBe(`/usr/bin/node ${command(name)}`);
      expect(value('KillSignal')).toBe('SIGTERM');
      expect(Number(value('TimeoutStopSec')) * 1000).toBeGreaterThan(grace + 5_000);
      expect(value('EnvironmentFile')).toBe('/etc/switchboard/switchboard.env');
      expect(unit.split('\n').filter((line) => line.startsWith('Environment='))).toEqual(
        Object.entries(serviceEnv(name)).map(([key, envValue]) => `Environment=${key}=${envValue}`),
      );
    }
  });

  it.skipIf(!SYSTEMD_ANALYZE)('each systemd unit passes systemd-analyze verify', () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-units-'));
    try {
      for (const name of SERVICE_NAMES) {
        // This machine's node and user stand in for /usr/bin/node and the switchboard user.
        const unit = readFileSync(join(ROOT, `deploy/systemd/switchboard-${name}.service`), 'utf8')
          .replace('/usr/bin/node', process.execPath)
          .replace(/^(User|Group)=switchboard$/gm, '$1=root');
        const file = join(dir, `switchboard-${name}.service`);
        writeFileSync(file, unit);
        const result = spawnSync(SYSTEMD_ANALYZE!, ['verify', file], { encoding: 'utf8' });
        expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`switchboard deploy nginx` prints deploy/nginx.conf for its example topology, and refuses a malformed instance', async () => {
    const args = [
      'deploy',
      'nginx',
      '--sms',
      '10.0.0.11:8101,10.0.0.12:8101',
      '--flows',
      '10.0.0.11:8102,10.0.0.12:8102',
      '--tickets',
      '10.0.0.11:8103,10.0.0.12:8103',
    ];
    const printed = await runInProcess(registerDeployCommands, {}, args);
    expect(printed).toEqual({ code: 0, stdout: readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8'), stderr: '' });
    const json = await runInProcess(registerDeployCommands, {}, [...args, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ config: printed.stdout });
    expect(await runInProcess(registerDeployCommands, {}, ['deploy', 'nginx', '--sms', 'nope'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: --sms: expected host:port[,host:port…], got "nope"\n',
    });
  });
});

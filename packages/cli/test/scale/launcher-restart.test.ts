import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import { presentServices } from '../../src/services.ts';
import { startLauncher } from '../helpers.ts';
import { readdirSync, readFileSync } from 'node:fs';

/** The pid of the launcher's running child that runs `name`'s bundle (read from /proc, Linux). */
function childPid(launcherPid: number, name: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) !== launcherPid || state === 'Z') continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (command.some((part) => part.endsWith(`packages/${name}/dist/main.mjs`))) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

describe('npm start when a service dies', () => {
  let database: TestDatabase;
  afterAll(async () => database?.cleanup());

  it('starts that service again and leaves the others running', async () => {
    database = await createTestDatabase('sqlite');
    const services = presentServices();
    const launcher = startLauncher({ ...database.env, SMS_PORT: '0', FLOWS_PORT: '0', TICKETS_PORT: '0' });
    try {
      await launcher.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/, services.length);
      const before = Object.fromEntries(services.map((name) => [name, childPid(launcher.pid, name)]));
      process.kill(before.sms!, 'SIGKILL');
      const output = await launcher.waitFor(/SMS message store listening on http:\/\/127\.0\.0\.1:\d+/, 2);
      expect(output).toContain('sms service exited with SIGKILL; starting it again in 500 ms');
      const after = Object.fromEntries(services.map((name) => [name, childPid(launcher.pid, name)]));
      expect(after.sms).not.toBe(before.sms);
      for (const name of services.filter((n) => n !== 'sms')) expect(after[name]).toBe(before[name]);
      const url = /SMS message store listening on (http:\/\/127\.0\.0\.1:\d+)/g;
      const urls = [...output.matchAll(url)].map((match) => match[1]);
      expect((await fetch(`${urls[1]}/health`)).status).toBe(200);
    } finally {
      expect(await launcher.stop()).toBe(0);
    }
  }, 180_000);
});

import { ConfigError, MIN_PASSWORD_LENGTH, UserStore, openPlatformDatabase, type Env } from '@switchboard/core';
import { loadService, type BootstrapResult } from './services.ts';

/**
 * First start on an empty data directory: creates the admin user and each
 * service's demo tenant, and returns what to print. Returns undefined on every
 * later start (the deployment has users).
 */
export async function bootstrapOnce(env: Env, services: string[]): Promise<BootstrapResult[] | undefined> {
  const platform = await openPlatformDatabase(env);
  try {
    const users = new UserStore(platform.db);
    if ((await users.count()) > 0) return undefined;
    // Checked before any tenant is made: a first start refused here leaves nothing behind to start again on.
    const chosen = env.SWITCHBOARD_ADMIN_PASSWORD;
    if (chosen && chosen.length < MIN_PASSWORD_LENGTH)
      throw new ConfigError('SWITCHBOARD_ADMIN_PASSWORD', `must be at least ${MIN_PASSWORD_LENGTH} characters (the first admin's password)`);
    const results: BootstrapResult[] = [];
    for (const name of services) results.push(await (await loadService(name)).bootstrap(env));
    // The admin user last: its existence marks the bootstrap as done.
    const { user, password } = await users.create({
      email: env.SWITCHBOARD_ADMIN_EMAIL || 'admin@switchboard.local',
      password: env.SWITCHBOARD_ADMIN_PASSWORD || undefined,
      admin: true,
      name: 'Admin',
    });
    results.unshift({
      title: 'Admin user (web UI login)',
      lines: [`email:    ${user.email}`, `password: ${env.SWITCHBOARD_ADMIN_PASSWORD ? '(from SWITCHBOARD_ADMIN_PASSWORD)' : password}`],
    });
    return results;
  } finally {
    await platform.close();
  }
}

/** Formats the first-start block. */
export function formatBootstrap(results: BootstrapResult[]): string {
  const out = ['', '==================== Switchboard: first start ====================', 'These credentials are shown once. Keep them somewhere safe.', ''];
  for (const result of results) {
    out.push(`## ${result.title}`, ...result.lines.map((line) => `  ${line}`), '');
  }
  out.push('==================================================================', '');
  return out.join('\n');
}

import type { Command } from 'commander';
import { UserStore, openPlatformDatabase } from '@switchboard/core';
import { action, printResult, type CommonOptions } from '../output.ts';

/** `switchboard user create EMAIL [--password P] [--admin]`. */
export function registerUserCommands(program: Command): void {
  const user = program.command('user').description('deployment users (web UI logins, ticket board members)');
  user
    .command('create <email>')
    .description('create a user; prints a generated password when none is given')
    .option('--password <password>', 'password (at least 12 characters)')
    .option('--name <name>', 'display name')
    .option('--admin', 'make the user an administrator')
    .option('--json', 'print one JSON object')
    .action(
      action(async (email: string, options: CommonOptions & { password?: string; admin?: boolean; name?: string }) => {
        const database = await openPlatformDatabase();
        try {
          const { user: created, password } = await new UserStore(database.db).create({
            email,
            password: options.password,
            admin: options.admin,
            name: options.name,
          });
          printResult(
            options,
            { user_id: created.id, email: created.email, password },
            `created ${created.role} ${created.email} (id ${created.id})\npassword: ${password}`,
          );
        } finally {
          await database.close();
        }
      }),
    );
}

import type { Command } from 'commander';

/** `switchboard sms …` commands (added with the sms service). */
export function registerSmsCommands(program: Command): void {
  program.command('sms').description('sms service administration (not built yet)');
}

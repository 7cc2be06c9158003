import type { Command } from 'commander';

/** `switchboard tickets …` commands (added with the tickets service). */
export function registerTicketsCommands(program: Command): void {
  program.command('tickets').description('tickets service administration (not built yet)');
}

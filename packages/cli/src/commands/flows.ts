import type { Command } from 'commander';

/** `switchboard flows …` commands (added with the flows service). */
export function registerFlowsCommands(program: Command): void {
  program.command('flows').description('flows service administration (not built yet)');
}

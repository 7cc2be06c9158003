import { Command } from 'commander';
import { registerUserCommands } from './commands/user.ts';
import { registerSmsCommands } from './commands/sms.ts';
import { registerFlowsCommands } from './commands/flows.ts';
import { registerTicketsCommands } from './commands/tickets.ts';

const program = new Command('switchboard')
  .description('Administer Switchboard: SMS organizations, flows, ticket projects and users.\nWorks on the same DATA_DIR / DATABASE_URL as the services.')
  .showHelpAfterError()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) })
  .exitOverride((error) => {
    // Usage errors: commander already printed one line on stderr.
    process.exit(error.exitCode === 0 ? 0 : 2);
  });

registerUserCommands(program);
registerSmsCommands(program);
registerFlowsCommands(program);
registerTicketsCommands(program);

await program.parseAsync(process.argv);

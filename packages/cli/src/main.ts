import { Command } from 'commander';

const program = new Command('switchboard')
  .description('Administer Switchboard: SMS organizations, flows, ticket projects and users.\nWorks on the same DATA_DIR / DATABASE_URL as the services.')
  .showHelpAfterError()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) })
  .exitOverride((error) => {
    // Usage errors: commander already printed one line on stderr.
    process.exit(error.exitCode === 0 ? 0 : 2);
  });

type Register = (program: Command) => void;

// Each group loads its service package only when asked for: a command starts in a fraction of the time.
const groups: Record<string, () => Promise<Register>> = {
  user: async () => (await import('./commands/user.ts')).registerUserCommands,
  sms: async () => (await import('./commands/sms.ts')).registerSmsCommands,
  flows: async () => (await import('./commands/flows.ts')).registerFlowsCommands,
  tickets: async () => (await import('./commands/tickets.ts')).registerTicketsCommands,
  deploy: async () => (await import('./commands/deploy.ts')).registerDeployCommands,
};

const requested = process.argv[2];
const names = requested !== undefined && Object.hasOwn(groups, requested) ? [requested] : Object.keys(groups);
for (const name of names) (await groups[name]())(program);

await program.parseAsync(process.argv);

import type { Command } from 'commander';
import { AppError, MembershipStore, UserStore } from '@switchboard/core';
import { createLabel, createProject, createToken, listProjectTokens, revokeProjectToken, setProject, withTicketsStore } from '@switchboard/tickets';
import { action, printResult, type CommonOptions } from '../output.ts';
import { withPlatform } from '../platform.ts';

function onOff(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`--auto-summary must be on or off, got "${value}"`);
}

/** `switchboard tickets …`: projects, tokens and labels of the ticket board (works whether the service runs or not). */
export function registerTicketsCommands(program: Command): void {
  const tickets = program.command('tickets').description('ticket board administration: projects, tokens, labels');

  const project = tickets.command('project').description('ticket projects');
  project
    .command('create <key>')
    .description('create a project (key: 2-10 upper-case letters/digits, starting with a letter) with the default board')
    .requiredOption('--name <name>', 'project name')
    .option('--description <text>', 'project description')
    .option('--json', 'print one JSON object')
    .action(
      action(async (key: string, options: CommonOptions & { name: string; description?: string }) => {
        const result = await withTicketsStore(process.env, (db) => createProject(db, { key, name: options.name, description: options.description }));
        printResult(options, result, `created project ${result.key} (id ${result.project_id})`);
      }),
    );
  project
    .command('set <key>')
    .description('change a project: name, description, Auto-Summary')
    .option('--auto-summary <state>', 'on or off')
    .option('--name <name>', 'project name')
    .option('--description <text>', 'project description')
    .option('--json', 'print one JSON object')
    .action(
      action(async (key: string, options: CommonOptions & { autoSummary?: string; name?: string; description?: string }) => {
        const autoSummary = onOff(options.autoSummary);
        const result = await withTicketsStore(process.env, (db) => setProject(db, key, { name: options.name, description: options.description, autoSummary }));
        printResult(options, result, `project ${result.key}: ${result.name} (auto-summary ${result.settings.auto_summary ? 'on' : 'off'})`);
      }),
    );

  // Command declarations: each subcommand's options and action share a shape, with their own words.
  const token = tickets.command('token').description('project-scoped API tokens (sbt_…) for MCP and REST');
  token
    .command('create <key>')
    .description('issue a token for a project (shown once)')
    .option('--name <name>', 'token name (appears in activity as token:NAME)', 'default')
    .option('--read-only', 'the token may only read: it lists and calls only the read tools, and REST writes answer 403')
    .option('--json', 'print one JSON object')
    .action(
      action(async (key: string, options: CommonOptions & { name: string; readOnly?: boolean }) => {
        const result = await withTicketsStore(process.env, (db) => createToken(db, key, options.name, options.readOnly ? 'read' : 'write'));
        const access = options.readOnly ? 'read only' : 'read and write';
        printResult(options, result, `token ${result.token_id} (${access})\n${result.token}\n(shown once; keep it safe)`);
      }),
    );
  token
    .command('revoke <key> <tokenId>')
    .description('revoke a token; it fails on the very next request')
    .option('--json', 'print one JSON object')
    .action(
      action(async (key: string, tokenId: string, options: CommonOptions) => {
        const result = await withTicketsStore(process.env, (db) => revokeProjectToken(db, key, tokenId));
        printResult(options, result, `revoked token ${tokenId}`);
      }),
    );
  token
    .command('list <key>')
    .description("list a project's tokens (never the secret)")
    .option('--json', 'print one JSON object')
    .action(
      action(async (key: string, options: CommonOptions) => {
        const result = await withTicketsStore(process.env, (db) => listProjectTokens(db, key));
        printResult(options, result);
      }),
    );

  const member = tickets.command('member').description('members of a project: users (not admins) who may use it in the web UI');
  member
    .command('add <key> <email>')
    .description('let a user see and work on a project in the board (admins see every project)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (key: string, email: string, options: CommonOptions) => {
        const project = await withTicketsStore(process.env, (db) =>
          db.selectFrom('projects').select('key').where('key', '=', key.trim().toUpperCase()).executeTakeFirst(),
        );
        if (!project) throw new AppError('not_found', `No project with key ${key}.`);
        const result = await withPlatform(async (platform) => {
          const user = await new UserStore(platform.db).requireByEmail(email);
          await new MembershipStore(platform.db).add('tickets', project.key, user.id);
          return { email: user.email, added: true };
        });
        printResult(options, result, `${result.email} is a member of ${project.key}`);
      }),
    );

  const label = tickets.command('label').description('project labels');
  label
    .command('create <key> <name>')
    .description('create a label')
    .option('--color <color>', 'colour as #rgb or #rrggbb', '#6b7280')
    .option('--json', 'print one JSON object')
    .action(
      action(async (key: string, name: string, options: CommonOptions & { color: string }) => {
        const result = await withTicketsStore(process.env, (db) => createLabel(db, key, name, options.color));
        printResult(options, result, `created label ${result.name} (${result.color})`);
      }),
    );
}

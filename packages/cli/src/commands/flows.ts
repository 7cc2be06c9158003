import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { AppError, MembershipStore, UserStore } from '@switchboard/core';
import { loadConfig, openFlowsStores, PROVIDER_KINDS, TOKEN_SCOPES, type FlowsStores, type TokenScope } from '@switchboard/flows';
import { action, printResult, type CommonOptions } from '../output.ts';
import { withPlatform } from '../platform.ts';

async function withStores<T>(run: (stores: FlowsStores) => Promise<T>): Promise<T> {
  const stores = await openFlowsStores(loadConfig());
  try {
    return await run(stores);
  } finally {
    await stores.close();
  }
}

/** `switchboard flows …`: organizations, tokens, provider connections, secrets and flows of the flow-execution service. */
export function registerFlowsCommands(program: Command): void {
  const flows = program.command('flows').description('flow execution service: organizations, tokens, providers, secrets, flows');

  const org = flows.command('org').description('organizations');
  org
    .command('create <org_code>')
    .description('create an organization and its first token (scope manage)')
    .option('--name <name>', 'display name')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, options: CommonOptions & { name?: string }) => {
        const result = await withStores(async (stores) => {
          const created = await stores.orgs.createOrg(orgCode, options.name);
          const { token } = await stores.orgs.createToken(created.id, { scope: 'manage', name: 'initial manage token' });
          return { org_code: created.code, token };
        });
        printResult(options, result, `created organization ${result.org_code}\ntoken (scope manage, shown once): ${result.token}`);
      }),
    );

  const token = flows.command('token').description('API tokens (prefix sbf_)');
  token
    .command('create <org_code>')
    .description('issue a token; the secret is shown once')
    .option('--name <name>', 'name shown in listings')
    .option('--scope <scope>', `${TOKEN_SCOPES.join(' or ')}`, 'run')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, options: CommonOptions & { name?: string; scope: string }) => {
        if (!TOKEN_SCOPES.includes(options.scope as TokenScope)) throw new AppError('invalid_request', `--scope must be one of ${TOKEN_SCOPES.join(', ')}`);
        const result = await withStores(async (stores) => {
          const found = await stores.orgs.requireOrg(orgCode);
          const created = await stores.orgs.createToken(found.id, { name: options.name, scope: options.scope as TokenScope });
          return { token_id: created.id, token: created.token };
        });
        printResult(options, result, `token ${result.token_id} (scope ${options.scope}, shown once): ${result.token}`);
      }),
    );
  token
    .command('revoke <org_code> <token_id>')
    .description('revoke a token; it fails on the next request')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, tokenId: string, options: CommonOptions) => {
        await withStores(async (stores) => stores.orgs.revokeToken((await stores.orgs.requireOrg(orgCode)).id, tokenId));
        printResult(options, { revoked: true }, `revoked ${tokenId}`);
      }),
    );
  token
    .command('list <org_code>')
    .description('list tokens (never their secrets)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, options: CommonOptions) => {
        const tokens = await withStores(async (stores) => stores.orgs.listTokens((await stores.orgs.requireOrg(orgCode)).id));
        const listed = tokens.map((t) => ({
          id: t.id,
          name: t.name,
          scope: t.scope,
          hint: t.hint,
          created_at: t.createdAt,
          last_used_at: t.lastUsedAt,
          revoked_at: t.revokedAt,
        }));
        const human = listed
          .map((t) => `${t.id}  ${t.scope.padEnd(6)}  ${t.hint}  ${t.name}${t.revoked_at ? '  (revoked)' : ''}  last used ${t.last_used_at ?? 'never'}`)
          .join('\n');
        printResult(options, { tokens: listed }, human || 'no tokens');
      }),
    );

  const member = flows.command('member').description('members of an organization: users (not admins) who may use it in the web UI');
  member
    .command('add <org_code> <email>')
    .description('let a user see and manage an organization in the dashboard (admins see every organization)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, email: string, options: CommonOptions) => {
        const found = await withStores((stores) => stores.orgs.requireOrg(orgCode));
        const result = await withPlatform(async (platform) => {
          const user = await new UserStore(platform.db).requireByEmail(email);
          await new MembershipStore(platform.db).add('flows', found.code, user.id);
          return { email: user.email, added: true };
        });
        printResult(options, result, `${result.email} is a member of ${found.code}`);
      }),
    );

  const provider = flows.command('provider').description('provider connections (API keys stored encrypted)');
  provider
    .command('set <org_code> <name>')
    .description('create or replace a provider connection')
    .requiredOption('--kind <kind>', PROVIDER_KINDS.join(' | '))
    .option('--base-url <url>', 'API base URL (required for openai-compatible)')
    .option('--api-key <key>', 'API key (stored encrypted, never shown again)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, name: string, options: CommonOptions & { kind: string; baseUrl?: string; apiKey?: string }) => {
        const result = await withStores(async (stores) =>
          stores.orgs.setProvider((await stores.orgs.requireOrg(orgCode)).id, { name, kind: options.kind, baseUrl: options.baseUrl, apiKey: options.apiKey }),
        );
        printResult(options, result, `provider ${result.name} (${result.kind}) saved`);
      }),
    );

  const secret = flows.command('secret').description('secrets for tool requests ({{secrets.NAME}}), stored encrypted, never shown again');
  secret
    .command('set <org_code> <name>')
    .description('create or replace a secret; the value comes from --value or, without it, from standard input (one final newline dropped)')
    .option('--value <value>', 'the value (on a shared machine prefer standard input: a command line can be seen by others)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, name: string, options: CommonOptions & { value?: string }) => {
        const value = options.value ?? (await valueFromStdin());
        const result = await withStores(async (stores) => {
          const saved = await stores.secrets.set((await stores.orgs.requireOrg(orgCode)).id, name, value);
          return { name: saved.name, set: true };
        });
        printResult(options, result, `secret ${result.name} set (reference it as {{secrets.${result.name}}})`);
      }),
    );
  secret
    .command('list <org_code>')
    .description('list secrets: names and dates, never values')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, options: CommonOptions) => {
        const secrets = await withStores(async (stores) => stores.secrets.list((await stores.orgs.requireOrg(orgCode)).id));
        const human = secrets.map((s) => `${s.name}  updated ${s.updated_at}  last used ${s.last_used_at ?? 'never'}`).join('\n');
        printResult(options, { secrets }, human || 'no secrets');
      }),
    );
  secret
    .command('delete <org_code> <name>')
    .description('delete a secret; tool calls that reference it fail from then on')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, name: string, options: CommonOptions) => {
        await withStores(async (stores) => stores.secrets.delete((await stores.orgs.requireOrg(orgCode)).id, name));
        printResult(options, { deleted: true }, `deleted secret ${name}`);
      }),
    );

  const kb = flows.command('kb').description('knowledge bases (text, Markdown and PDF documents for retrieval nodes)');
  kb.command('add <org_code> <kb_name> <files...>')
    .description('add documents to a knowledge base, creating it when missing; prints the counts')
    .option('--embedding-provider <name>', 'provider connection for embeddings (new knowledge bases only)')
    .option('--embedding-model <model>', 'embedding model (new knowledge bases only)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, kbName: string, files: string[], options: CommonOptions & { embeddingProvider?: string; embeddingModel?: string }) => {
        const documents = await Promise.all(
          files.map(async (file) => {
            try {
              return { name: basename(file), data: await readFile(file) };
            } catch (error) {
              throw new AppError('invalid_request', `cannot read ${file}: ${(error as Error).message}`);
            }
          }),
        );
        const result = await withStores(async (stores) => {
          const found = await stores.orgs.requireOrg(orgCode);
          if (!(await stores.knowledgeBases.find(found.id, kbName))) {
            await stores.knowledgeBases.create(found.id, {
              name: kbName,
              embeddingProvider: options.embeddingProvider,
              embeddingModel: options.embeddingModel,
            });
          }
          const added = await stores.knowledge.addDocuments({ id: found.id, providersVersion: found.providersVersion }, kbName, documents);
          return { knowledge_base: added.knowledge_base, documents: added.documents, chunks: added.chunks };
        });
        printResult(options, result, `added ${result.documents} document(s), ${result.chunks} chunk(s) to ${result.knowledge_base}`);
      }),
    );

  flows
    .command('save <org_code> <file>')
    .description('save a flow definition (JSON): creates it, or a new version of the flow its "slug" names')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgCode: string, file: string, options: CommonOptions) => {
        let definition: unknown;
        try {
          definition = JSON.parse(await readFile(file, 'utf8'));
        } catch (error) {
          throw new AppError('invalid_request', `cannot read ${file}: ${(error as Error).message}`);
        }
        const saved = await withStores(async (stores) => {
          const found = await stores.orgs.requireOrg(orgCode);
          return stores.admin.save(found, definition, { author: 'cli' });
        });
        const result = { slug: saved.flow.slug, version: saved.flow.version };
        printResult(options, result, `${saved.created ? 'created' : 'updated'} flow ${result.slug} (version ${result.version})`);
      }),
    );
}

/** A secret's value read from standard input (`printf %s "$TOKEN" | switchboard …`), one final newline dropped. */
async function valueFromStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new AppError(
      'invalid_request',
      'give the value with --value or on standard input, e.g. printf %s "$TOKEN" | switchboard flows secret set ORG_CODE NAME',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

import type { Command } from 'commander';
import { AppError, MembershipStore, UserStore } from '@switchboard/core';
import { DRIVERS, openSmsAdmin, type DriverName, type GatewaySettings, type SmsAdmin } from '@switchboard/sms';
import { action, printResult, type CommonOptions } from '../output.ts';
import { withPlatform } from '../platform.ts';

async function withAdmin<T>(run: (admin: SmsAdmin) => Promise<T>): Promise<T> {
  const admin = await openSmsAdmin(process.env);
  try {
    return await run(admin);
  } finally {
    await admin.close();
  }
}

interface GatewayOptions extends CommonOptions {
  driver: string;
  url?: string;
  username?: string;
  password?: string;
  apiKey?: string;
  accountSid?: string;
  authToken?: string;
  from?: string;
  signingKey?: string;
}

/** `switchboard sms …`: organizations, secret keys, gateway drivers and SIMs. */
export function registerSmsCommands(program: Command): void {
  const sms = program.command('sms').description('SMS message store: organizations, secret keys, gateways, SIMs');

  const org = sms.command('org').description('organizations');
  org
    .command('create <org_id>')
    .description('create an organization and its first secret key (shown once)')
    .option('--name <name>', 'display name')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgId: string, options: CommonOptions & { name?: string }) => {
        const created = await withAdmin((admin) => admin.orgs.createOrganization(orgId, options.name, new Date()));
        printResult(
          options,
          { org_id: created.orgId, secret_key: created.secretKey },
          `created organization ${created.orgId}\nsecret key: ${created.secretKey}`,
        );
      }),
    );

  const key = sms.command('key').description('secret keys (prefix sms_)');
  key
    .command('create <org_id>')
    .description('issue another secret key (shown once)')
    .option('--name <name>', 'name to recognize the key by')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgId: string, options: CommonOptions & { name?: string }) => {
        const created = await withAdmin((admin) => admin.orgs.createKey(orgId, options.name, new Date()));
        printResult(options, { key_id: created.keyId, secret_key: created.secretKey }, `key ${created.keyId}: ${created.secretKey}`);
      }),
    );
  key
    .command('revoke <org_id> <key_id>')
    .description('revoke a key; it fails on the very next request')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgId: string, keyId: string, options: CommonOptions) => {
        if (!/^\d+$/.test(keyId)) throw new AppError('invalid_request', `key id must be a number, got "${keyId}"`);
        await withAdmin((admin) => admin.orgs.revokeKey(orgId, Number(keyId), new Date()));
        printResult(options, { revoked: true }, `revoked key ${keyId}`);
      }),
    );
  key
    .command('list <org_id>')
    .description('list keys (never the secrets)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgId: string, options: CommonOptions) => {
        const keys = await withAdmin((admin) => admin.orgs.listKeys(orgId));
        const human = keys
          .map(
            (k) =>
              `${k.key_id}\t${k.hint}\t${k.name}\tcreated ${k.created_at}\tlast used ${k.last_used_at ?? 'never'}${k.revoked_at ? `\trevoked ${k.revoked_at}` : ''}`,
          )
          .join('\n');
        printResult(options, { keys }, human || 'no keys');
      }),
    );

  sms
    .command('gateway')
    .description('gateway drivers')
    .command('set <org_id>')
    .description('configure a driver (credentials stored encrypted) and make it the sending driver')
    .requiredOption('--driver <driver>', `one of ${DRIVERS.join(', ')}`)
    .option('--url <url>', "android: the app's API base URL; webhook: the URL to post to; httpsms/twilio: API base URL override")
    .option('--username <username>', 'android: basic auth user')
    .option('--password <password>', 'android: basic auth password')
    .option('--api-key <key>', 'httpsms: API key')
    .option('--account-sid <sid>', 'twilio: account SID')
    .option('--auth-token <token>', 'twilio: auth token (also checks X-Twilio-Signature on the webhook)')
    .option('--from <number>', 'sender number (httpsms, twilio)')
    .option('--signing-key <key>', 'android/httpsms: key their webhook signatures are checked with; webhook: key that signs what is sent')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgId: string, options: GatewayOptions) => {
        if (!(DRIVERS as readonly string[]).includes(options.driver)) {
          throw new AppError('invalid_request', `--driver must be one of ${DRIVERS.join(', ')}, got "${options.driver}"`);
        }
        const settings: GatewaySettings = {};
        if (options.url !== undefined) {
          try {
            new URL(options.url);
          } catch {
            throw new AppError('invalid_request', `--url is not a valid URL: ${options.url}`);
          }
          settings.url = options.url;
        }
        if (options.username !== undefined) settings.username = options.username;
        if (options.password !== undefined) settings.password = options.password;
        if (options.apiKey !== undefined) settings.api_key = options.apiKey;
        if (options.accountSid !== undefined) settings.account_sid = options.accountSid;
        if (options.authToken !== undefined) settings.auth_token = options.authToken;
        if (options.from !== undefined) settings.from = options.from;
        if (options.signingKey !== undefined) settings.signing_key = options.signingKey;
        const driver = options.driver as DriverName;
        await withAdmin((admin) => admin.orgs.setGateway(orgId, driver, settings, new Date()));
        printResult(options, { org_id: orgId, driver }, `organization ${orgId} sends through ${driver}`);
      }),
    );

  sms
    .command('member')
    .description('members of an organization: users (not admins) who may use its console in the web UI')
    .command('add <org_id> <email>')
    .description('let a user see and use an organization in the SMS console (admins see every organization)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgId: string, email: string, options: CommonOptions) => {
        const org = await withAdmin((admin) => admin.orgs.findOrganization(orgId));
        if (!org) throw new AppError('not_found', `No organization ${orgId}.`);
        const result = await withPlatform(async (platform) => {
          const user = await new UserStore(platform.db).requireByEmail(email);
          await new MembershipStore(platform.db).add('sms', org.org_id, user.id);
          return { email: user.email, added: true };
        });
        printResult(options, result, `${result.email} is a member of ${org.org_id}`);
      }),
    );

  sms
    .command('sim')
    .description('SIMs')
    .command('set <org_id> <sim>')
    .description("set a SIM's label and phone number (registers it when new)")
    .option('--label <label>', 'label')
    .option('--phone-number <number>', "the SIM's phone number")
    .option('--json', 'print one JSON object')
    .action(
      action(async (orgId: string, sim: string, options: CommonOptions & { label?: string; phoneNumber?: string }) => {
        const record = await withAdmin((admin) => admin.orgs.setSim(orgId, sim, { label: options.label, phoneNumber: options.phoneNumber }, new Date()));
        printResult(
          options,
          { sim: record.sim, label: record.label, phone_number: record.phone_number },
          `${record.sim}: label ${record.label ?? '-'}, phone number ${record.phone_number ?? '-'}`,
        );
      }),
    );
}

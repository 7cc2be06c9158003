import type { Command } from 'commander';
import { envInt } from '@switchboard/core';
import { printResult, action, type CommonOptions } from '../output.ts';
import { renderNginxConfig, type NginxTopology } from '../deploy/nginx-config.ts';

const INSTANCE = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/;

/** Splits `host:port,host:port` into instances; refuses anything else with one line naming the option. */
function instances(option: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const bad = list.find((item) => !INSTANCE.test(item));
  if (bad !== undefined || list.length === 0) throw new Error(`${option}: expected host:port[,host:port…], got "${bad ?? value}"`);
  return list;
}

function port(option: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) throw new Error(`${option}: expected a port, got "${value}"`);
  return Number(value);
}

interface NginxOptions extends CommonOptions {
  sms?: string;
  flows?: string;
  tickets?: string;
  smsListen?: string;
  flowsListen?: string;
  ticketsListen?: string;
}

/** `switchboard deploy nginx --sms HOST:PORT,… [--flows …] [--tickets …]`: the nginx configuration of docs/deploy.md for these instances. */
export function registerDeployCommands(program: Command): void {
  const deploy = program.command('deploy').description('deployment files (docs/deploy.md)');
  deploy
    .command('nginx')
    .description('print the nginx configuration (conf.d/switchboard.conf) for these instances; BODY_LIMIT from the environment')
    .option('--sms <instances>', 'SMS instances, host:port separated by commas')
    .option('--flows <instances>', 'flows instances, host:port separated by commas')
    .option('--tickets <instances>', 'ticket board instances, host:port separated by commas')
    .option('--sms-listen <port>', 'port nginx listens on for SMS (default 8101)')
    .option('--flows-listen <port>', 'port nginx listens on for flows (default 8102)')
    .option('--tickets-listen <port>', 'port nginx listens on for the ticket board (default 8103)')
    .option('--json', 'print {"config": TEXT}')
    .action(
      action(async (options: NginxOptions) => {
        const topology: NginxTopology = {
          upstreams: { sms: instances('--sms', options.sms), flows: instances('--flows', options.flows), tickets: instances('--tickets', options.tickets) },
          listen: {
            sms: port('--sms-listen', options.smsListen, 8101),
            flows: port('--flows-listen', options.flowsListen, 8102),
            tickets: port('--tickets-listen', options.ticketsListen, 8103),
          },
          bodyLimit: envInt(process.env, 'BODY_LIMIT', 1_048_576, { min: 1024 }),
        };
        if (!topology.upstreams.sms && !topology.upstreams.flows && !topology.upstreams.tickets)
          throw new Error('name the instances of at least one service: --sms, --flows or --tickets');
        const config = renderNginxConfig(topology);
        if (options.json) printResult(options, { config });
        else process.stdout.write(config);
      }),
    );
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderNginxConfig, type NginxTopology } from '../../src/deploy/nginx-config.ts';

/** Debian's nginx, where `.ci/run` installs it; undefined when absent (the tests that need it say they are skipped). */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
if (!NGINX) process.stderr.write('scale-out tests: nginx is not installed (apt-get install nginx; .ci/run does); the tests behind nginx are skipped\n');

/** A free TCP port on 127.0.0.1 (bound and released; nginx binds it right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** nginx running the documented configuration in front of the given instances. */
export interface RunningNginx {
  /** Base URL of each service through nginx. */
  urls: { sms?: string; flows?: string; tickets?: string };
  /** The rendered configuration it runs. */
  config: string;
  /** nginx's error log so far. */
  errorLog(): string;
  close(): Promise<void>;
}

/**
 * The main nginx.conf of a test: a scratch prefix, no daemon, and the
 * switchboard.conf include (what a deployment puts in conf.d/).
 */
function mainConfig(dir: string): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/switchboard.conf;
}
`;
}

/** Checks a configuration with `nginx -t`: undefined when valid, else nginx's complaint. */
export function checkNginxConfig(config: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-nginx-'));
  try {
    writeFileSync(join(dir, 'switchboard.conf'), config);
    writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir));
    const result = spawnSync(NGINX!, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    return result.status === 0 ? undefined : result.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts nginx (foreground) with renderNginxConfig for these instances, listening on free ports of 127.0.0.1. */
export async function startNginx(upstreams: NginxTopology['upstreams'], bodyLimit = 1_048_576): Promise<RunningNginx> {
  const listen: NginxTopology['listen'] = {};
  for (const service of ['sms', 'flows', 'tickets'] as const) if (upstreams[service]?.length) listen[service] = await freePort();
  const config = renderNginxConfig({ upstreams, listen, listenHost: '127.0.0.1', bodyLimit });
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-nginx-'));
  // nginx started as root runs its worker as nobody, which must write the temporary files.
  chmodSync(dir, 0o777);
  writeFileSync(join(dir, 'switchboard.conf'), config);
  writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir));
  const child: ChildProcess = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const urls = Object.fromEntries(Object.entries(listen).map(([service, port]) => [service, `http://127.0.0.1:${port}`]));
  // Ready once every port answers.
  const deadline = Date.now() + 10_000;
  for (const url of Object.values(urls)) {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
      const up = await fetch(`${url}/nginx-ready-check`).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`nginx did not listen: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return {
    urls,
    config,
    errorLog: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '') + stderr,
    async close() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

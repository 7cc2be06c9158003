import { execFile, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';

/** The repository root. */
export const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..', '..');

/** Result of one CLI run. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `switchboard ARGS…` through its bin, with the given environment (DATA_DIR, DATABASE_URL…). */
export function runCli(args: string[], env: Record<string, string>): CliResult {
  const result = spawnSync(process.execPath, [join(ROOT, 'packages/cli/bin/switchboard.mjs'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const execFileAsync = promisify(execFile);

/**
 * Runs `switchboard ARGS…` without blocking the test process, so tests can run
 * several at once; DATABASE_URL is cleared unless the environment sets it.
 */
export async function runCliAsync(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [join(ROOT, 'packages/cli/bin/switchboard.mjs'), ...args], {
      env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * Runs `switchboard ARGS…` in this process with the command group `register`
 * adds (a CLI start costs seconds on a busy machine): returns what it printed
 * and the exit code it set. DATABASE_URL is cleared unless `env` sets it.
 */
export async function runInProcess(
  register: (program: Command) => void,
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const program = new Command('switchboard').exitOverride();
  register(program);
  const saved = { out: process.stdout.write, err: process.stderr.write, env: { ...process.env } };
  let stdout = '';
  let stderr = '';
  process.stdout.write = ((chunk: string) => {
    stdout += chunk;
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => {
    stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  Object.assign(process.env, env, { DATABASE_URL: env.DATABASE_URL ?? '' });
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'switchboard', ...args]);
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    for (const key of Object.keys(process.env)) if (!(key in saved.env)) delete process.env[key];
    Object.assign(process.env, saved.env);
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, stdout, stderr };
}

/** Runs a CLI command with `--json` and parses its single stdout line (`T`: what the test reads of it); fails loudly otherwise. */
export function runCliJson<T = unknown>(args: string[], env: Record<string, string>): T {
  const result = runCli([...args, '--json'], env);
  if (result.status !== 0) throw new Error(`switchboard ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line of JSON, got:\n${result.stdout}`);
  return JSON.parse(lines[0]);
}

/** A long-running `npm start`-like process and what it printed so far. */
export function startLauncher(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/cli/src/start.ts')], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    pid: child.pid!,
    output: () => output,
    exited,
    /** Resolves when the output matches, rejects when the process exits first or after 60 s. */
    async waitFor(pattern: RegExp, count = 1): Promise<string> {
      const started = Date.now();
      while (Date.now() - started < 60_000) {
        if ((output.match(new RegExp(pattern.source, 'g')) ?? []).length >= count) return output;
        if (child.exitCode !== null) throw new Error(`launcher exited ${child.exitCode}:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`timed out waiting for ${pattern}:\n${output}`);
    },
    async stop(): Promise<number | null> {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The command lines (argv) of a process's running children (exited ones not yet reaped left out), read from /proc (Linux). */
export function childCommands(pid: number): string[][] {
  const commands: string[][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the parenthesised command name: state, then the parent's pid.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) !== pid || state === 'Z') continue;
      commands.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean));
    } catch {
      // The process exited while the directory was read.
    }
  }
  return commands;
}

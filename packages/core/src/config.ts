import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { parseAllowedHosts, type AddressPolicy } from './ssrf-policy.ts';

/** A configuration problem, reported at start as one line naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** The environment as a plain record, so tests can pass their own. */
export type Env = Record<string, string | undefined>;

/** Services of the platform; each has its own port, database file and schema. */
export type ServiceName = 'sms' | 'flows' | 'tickets';

const DEFAULT_PORTS: Record<ServiceName, number> = { sms: 8101, flows: 8102, tickets: 8103 };

/** Settings every service shares (see design/README.md, Configuration). */
export interface PlatformConfig {
  /** Which service this configuration is for. */
  service: ServiceName;
  /** Interface to listen on (HOST). */
  host: string;
  /** Port to listen on; 0 picks a free one (SMS_PORT, FLOWS_PORT, TICKETS_PORT). */
  port: number;
  /** Directory for SQLite files and the generated secret key (DATA_DIR). */
  dataDir: string;
  /** PostgreSQL URL when set (DATABASE_URL or the per-service override), else SQLite. */
  databaseUrl: string | undefined;
  /** Name of the variable that supplied databaseUrl, for error messages. */
  databaseUrlVariable: string;
  /** Optional Redis for cross-instance rate limits and pub/sub (REDIS_URL). */
  redisUrl: string | undefined;
  /** Base URL written into snippets and instructions; from the request when unset (PUBLIC_BASE_URL). */
  publicBaseUrl: string | undefined;
  /** pino log level (LOG_LEVEL). */
  logLevel: string;
  /** Largest request body in bytes (BODY_LIMIT). */
  bodyLimit: number;
  /** 32-byte key that encrypts stored third-party credentials (SWITCHBOARD_SECRET or DATA_DIR/secret.key). */
  secret: Buffer;
  /**
   * Whom to believe about the caller's address, scheme and host (X-Forwarded-For, -Proto, -Host): false (default:
   * nobody), true (any peer: only when nothing but the proxy can reach the service), a number of proxy hops, or the
   * proxies' addresses and CIDRs (TRUST_PROXY: `true`, `1`, `10.0.0.5,10.0.1.0/24`, …).
   */
  trustProxy: boolean | number | string;
  /** Longest a stop (SIGTERM) waits for requests and streams in flight before ending them (SHUTDOWN_GRACE_MS, default 15000). */
  shutdownGraceMs: number;
  /**
   * Non-public hosts, IPs or CIDRs OAuth client ID metadata documents may be fetched from anyway
   * (OAUTH_ALLOWED_HOSTS, comma-separated, `*` = all; default none: only public addresses).
   */
  oauthAllowedHosts: AddressPolicy;
  /**
   * Dynamic client registrations (POST /oauth/register) stored per client address and window
   * (OAUTH_REGISTRATION_RATE, default `20/h`); past it, 429 `temporarily_unavailable` with Retry-After.
   */
  oauthRegistrationRate: Rate;
  /**
   * Origins besides the service's own and PUBLIC_BASE_URL's whose browser pages may call the MCP endpoints
   * (MCP_ALLOWED_ORIGINS, comma-separated origins such as `https://app.example`; default none).
   */
  mcpAllowedOrigins: string[];
}

/** Reads an integer variable, or the default when unset; throws ConfigError when malformed or out of range. */
export function envInt(env: Env, name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (range.min !== undefined && value < range.min) throw new ConfigError(name, `must be at least ${range.min}, got ${value}`);
  if (range.max !== undefined && value > range.max) throw new ConfigError(name, `must be at most ${range.max}, got ${value}`);
  return value;
}

/** Reads one of a fixed set of values. */
export function envEnum<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** Reads a URL variable; returns undefined when unset. */
export function envUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}, got ${url.protocol}`);
  return raw;
}

/** A rate such as `30/30m` or `600/m`: `count` events per `windowMs`. */
export interface Rate {
  count: number;
  windowMs: number;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `N/UNIT` or `N/KUNIT` (units s, m, h, d), e.g. `60/m`, `30/30m`. */
export function parseRate(text: string): Rate | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d*)\s*([smhd])\s*$/.exec(text);
  if (!match) return undefined;
  const count = Number(match[1]);
  const multiple = match[2] === '' ? 1 : Number(match[2]);
  if (count < 1 || multiple < 1) return undefined;
  return { count, windowMs: multiple * UNIT_MS[match[3]] };
}

/** Reads a rate variable such as `60/m`. */
export function envRate(env: Env, name: string, fallback: string): Rate {
  const raw = env[name] === undefined || env[name] === '' ? fallback : env[name]!;
  const rate = parseRate(raw);
  if (!rate) throw new ConfigError(name, `must look like 60/m or 30/30m (count/window with unit s, m, h or d), got "${raw}"`);
  return rate;
}

/** Reads TRUST_PROXY: unset or `false`, `true`, a hop count, or comma-separated IP addresses and CIDRs. */
export function envTrustProxy(env: Env, name: string): boolean | number | string {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const parts = raw.split(',').map((part) => part.trim());
  for (const part of parts) {
    const [address, bits, extra] = part.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))) {
      throw new ConfigError(name, `must be true, false, a number of proxy hops, or IP addresses and CIDRs separated by commas, got "${raw}"`);
    }
  }
  return parts.join(',');
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Loads and validates the shared settings of one service from the environment. */
export function loadPlatformConfig(service: ServiceName, env: Env = process.env): PlatformConfig {
  const portVariable = `${service.toUpperCase()}_PORT`;
  const dataDir = resolve(env.DATA_DIR || './data');
  const serviceUrlVariable = `${service.toUpperCase()}_DATABASE_URL`;
  const databaseUrlVariable = env[serviceUrlVariable] ? serviceUrlVariable : 'DATABASE_URL';
  const host = env.HOST || '127.0.0.1';
  const publicBaseUrl = envUrl(env, 'PUBLIC_BASE_URL', ['http:', 'https:'])?.replace(/\/+$/, '');
  return {
    service,
    host,
    port: envInt(env, portVariable, DEFAULT_PORTS[service], { min: 0, max: 65535 }),
    dataDir,
    databaseUrl: envUrl(env, databaseUrlVariable, ['postgres:', 'postgresql:']),
    databaseUrlVariable,
    redisUrl: envUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    publicBaseUrl,
    logLevel: envEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    bodyLimit: envInt(env, 'BODY_LIMIT', 1_048_576, { min: 1024 }),
    secret: loadSecret(env, dataDir),
    trustProxy: envTrustProxy(env, 'TRUST_PROXY'),
    shutdownGraceMs: envInt(env, 'SHUTDOWN_GRACE_MS', 15_000, { min: 0, max: 3_600_000 }),
    oauthAllowedHosts: envAllowedHosts(env, 'OAUTH_ALLOWED_HOSTS'),
    oauthRegistrationRate: envRate(env, 'OAUTH_REGISTRATION_RATE', '20/h'),
    mcpAllowedOrigins: envOrigins(env, 'MCP_ALLOWED_ORIGINS'),
  };
}

/** Reads comma-separated web origins (`https://app.example`, `http://localhost:5173`), each normalized; throws ConfigError naming the variable when one is not an origin. */
export function envOrigins(env: Env, name: string): string[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  return raw.split(',').map((part) => {
    const text = part.trim();
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
    // An origin is scheme, host and port only: a path, query or credentials mean a URL was given by mistake.
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.href !== `${url.origin}/`) {
      throw new ConfigError(name, `must be origins such as https://app.example separated by commas, got "${text}"`);
    }
    return url.origin;
  });
}

/** Reads an allow-list of non-public hosts (see parseAllowedHosts); throws ConfigError naming the variable when malformed. */
export function envAllowedHosts(env: Env, name: string): AddressPolicy {
  try {
    return parseAllowedHosts(env[name], name);
  } catch (error) {
    throw new ConfigError(name, (error as Error).message);
  }
}

/**
 * SWITCHBOARD_SECRET when set (any string, stretched to 32 bytes with SHA-256),
 * else the key in DATA_DIR/secret.key, generated on first use with mode 0600.
 */
export function loadSecret(env: Env, dataDir: string): Buffer {
  const configured = env.SWITCHBOARD_SECRET;
  if (configured !== undefined && configured !== '') {
    if (configured.length < 16) throw new ConfigError('SWITCHBOARD_SECRET', 'must be at least 16 characters');
    return createHash('sha256').update(configured).digest();
  }
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new ConfigError('SWITCHBOARD_SECRET', `${file} does not hold a 32-byte base64 key`);
    return key;
  }
  ensureDir(dataDir);
  const key = randomBytes(32);
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another service process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSecret(env, dataDir);
    throw new ConfigError('DATA_DIR', `cannot write ${file}: ${(error as Error).message}`);
  }
  return key;
}

/** Creates a directory (and parents) when missing, reporting failures against DATA_DIR. */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new ConfigError('DATA_DIR', `cannot create ${dir}: ${(error as Error).message}`);
  }
}

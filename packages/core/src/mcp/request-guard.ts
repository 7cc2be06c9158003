import { localhostAllowedHostnames, validateHostHeader } from '@modelcontextprotocol/server';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { allowedOrigins } from '../origin-check.ts';

/** What decides which pages and names may reach an MCP endpoint. */
export interface McpGuardOptions {
  /** PUBLIC_BASE_URL: its origin may call, and its host name is accepted in `Host`. */
  publicBaseUrl: string | undefined;
  /** MCP_ALLOWED_ORIGINS: more origins whose pages may call. */
  allowedOrigins: readonly string[];
  /** HOST: on a loopback address, `Host` must name the machine itself (the check against DNS rebinding). */
  listenHost: string;
}

/** Whether HOST is a loopback address or `localhost` (then only this machine's own names may arrive in `Host`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return isIP(bare) === 6 && (bare === '::1' || bare === '0:0:0:0:0:0:0:1');
}

function originOf(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether `Host` is the address the request came in on (a server on 127.0.0.2 is called as 127.0.0.2): DNS
 * rebinding needs a foreign name, and an address literal is none.
 */
function namesLocalAddress(request: FastifyRequest): boolean {
  const local = request.socket?.localAddress?.replace(/^::ffff:/, '');
  if (!local || !request.host) return false;
  const named = request.host.startsWith('[') ? request.host.slice(1, request.host.indexOf(']')) : request.host.replace(/:\d*$/, '');
  return named === local;
}

const shown = (value: string) => JSON.stringify(value.slice(0, 200));

/** Why a request must be refused with 403 (a message for the JSON-RPC error), or undefined when it may go on. */
export type McpRequestGuard = (request: FastifyRequest) => string | undefined;

/**
 * The check of every MCP request, its allow-lists worked out once. A browser page of another site says so in
 * `Origin` (the transport pages: servers MUST check it); a page that rebinds its own DNS name to 127.0.0.1 keeps
 * that name in `Host`. Clients that are not browsers send no `Origin` and pass.
 */
export function createMcpGuard(options: McpGuardOptions): McpRequestGuard {
  const hostNames = isLoopbackHost(options.listenHost) ? localhostAllowedHostnames() : undefined;
  if (hostNames && options.publicBaseUrl) hostNames.push(new URL(options.publicBaseUrl).hostname);
  const listed = new Set(options.allowedOrigins);
  return (request) => {
    if (hostNames && !validateHostHeader(request.host, hostNames).ok && !namesLocalAddress(request)) {
      return `Forbidden: Host ${shown(request.host ?? '')} is not this server's name (a server on a loopback address answers localhost, 127.0.0.1, [::1], its own address or PUBLIC_BASE_URL's host).`;
    }
    const origin = request.headers.origin;
    if (origin === undefined || origin === '') return undefined;
    const claimed = originOf(origin);
    if (claimed !== undefined && (listed.has(claimed) || allowedOrigins(request, options.publicBaseUrl).includes(claimed))) return undefined;
    return `Forbidden: Origin ${shown(origin)} may not call this MCP server (allowed: this service's own origin, PUBLIC_BASE_URL's and MCP_ALLOWED_ORIGINS).`;
  };
}

/** Why an MCP request must be refused with 403, or undefined (createMcpGuard's check, made for one request). */
export function mcpRequestRefusal(request: FastifyRequest, options: McpGuardOptions): string | undefined {
  return createMcpGuard(options)(request);
}

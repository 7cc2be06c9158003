import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createTestDatabase, type TestDatabase } from '@switchboard/core/testing';
import type { App } from '@switchboard/core';
import { outputSchemaProblems } from './helpers/output-schemas.ts';
import { buildApp, createProject, createToken, loadConfig, withTicketsStore, TOOLS, type BuildOptions, type TicketsConfig } from '../src/index.ts';

/** A running ticket board on a real port, with one project and its token. */
export interface Board {
  app: App;
  url: string;
  token: string;
  projectKey: string;
  database: TestDatabase;
  env: Record<string, string>;
  /** Creates another project with a token on the same deployment. */
  addProject(key: string, tokenName?: string): Promise<string>;
  close(): Promise<void>;
}

/** What startBoard takes besides the dialect. */
export interface BoardOptions {
  key?: string;
  env?: Record<string, string>;
  /** What buildApp takes besides the configuration (a clock, a CA for OAuth client documents). */
  build?: BuildOptions;
}

/** Starts a board for a dialect; the worker does not poll (tests drain it). */
export async function startBoard(dialect: 'sqlite' | 'postgres', options: BoardOptions = {}): Promise<Board> {
  const database = await createTestDatabase(dialect);
  const env = { ...database.env, LOG_LEVEL: 'silent', TICKETS_SUMMARY_WORKER: 'off', ...options.env };
  const projectKey = options.key ?? 'DEMO';
  const addProject = async (key: string, tokenName = 'agent') =>
    withTicketsStore(env, async (db) => {
      await createProject(db, { key, name: `Project ${key}` });
      return (await createToken(db, key, tokenName)).token;
    });
  const token = await addProject(projectKey);
  const config: TicketsConfig = loadConfig(env);
  const app = await buildApp(config, options.build);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    url,
    token,
    projectKey,
    database,
    env,
    addProject,
    async close() {
      await app.close();
      await database.cleanup();
    },
  };
}

/**
 * Starts a board before the enclosing suite's tests and closes it after them.
 * The returned object is filled in by that beforeAll; `options` may be a
 * function when they depend on something an earlier beforeAll started.
 */
export function useBoard(dialect: 'sqlite' | 'postgres', options: BoardOptions | (() => BoardOptions) = {}): Board {
  const board = {} as Board;
  beforeAll(async () => {
    Object.assign(board, await startBoard(dialect, typeof options === 'function' ? options() : options));
  });
  afterAll(() => board.close());
  return board;
}

/** A REST caller with the board's own token (usable once the board has started). */
export function boardCaller(board: Board): Caller {
  return (name, args) => restCaller(board.url, board.token)(name, args);
}

/** Calls a tool one way or the other; both return the tool's JSON or throw ToolCallError. */
// biome-ignore lint/suspicious/noExplicitAny: a tool's JSON, whichever of the tools answered it; each test reads and asserts the fields it expects.
export type Caller = (name: string, args?: Record<string, unknown>) => Promise<any>;

/** The `_meta` of a tool's isError result: the catalogue's error code. */
type ErrorMeta = { 'dev.switchboard/error'?: { code?: string } };

/** A refused call: HTTP status (REST) or isError (MCP), with the message. */
export class ToolCallError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** Calls a tool through its REST method and path. */
export function restCaller(url: string, token: string): Caller {
  return async (name, args = {}) => {
    const tool = TOOLS.find((t) => t.name === name) ?? { rest: { method: 'DELETE', path: '/documents/{id}', idParam: 'doc_id', aliases: undefined } };
    const { method, idParam, aliases } = tool.rest;
    const rest: Record<string, unknown> = { ...args };
    let path = tool.rest.path;
    if (idParam) {
      path = path.replace('{id}', encodeURIComponent(String(rest[idParam])));
      delete rest[idParam];
    }
    for (const [alias, field] of Object.entries(aliases ?? {})) {
      if (field in rest) {
        rest[alias] = rest[field];
        delete rest[field];
      }
    }
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
    if (method === 'GET' || method === 'DELETE') {
      const query = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)])).toString();
      if (query) path += `?${query}`;
    } else {
      init.body = JSON.stringify(rest);
      init.headers = { ...init.headers, 'content-type': 'application/json' };
    }
    const response = await fetch(`${url}/api/mcp/v1${path}`, init);
    const body = await response.json();
    if (!response.ok) throw new ToolCallError(body.error.message, response.status, body.error.code);
    return body;
  };
}

/** Connects an MCP SDK client over Streamable HTTP (through `fetch` when given, e.g. to measure responses; to another endpoint path when given). */
export async function connectMcp(url: string, token: string, fetch?: typeof globalThis.fetch, path = '/api/mcp/v1/mcp'): Promise<Client> {
  const client = new Client({ name: 'switchboard-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}${path}`), { requestInit: { headers: { Authorization: `Bearer ${token}` } }, fetch });
  await client.connect(transport);
  return client;
}

/** A tool's answer over MCP with its sizes: characters of content[0].text and of the whole JSON-RPC response. */
export interface SizedAnswer {
  // biome-ignore lint/suspicious/noExplicitAny: a tool's JSON, whichever of the tools answered it; each test reads and asserts the fields it expects.
  result: any;
  text: number;
  response: number;
}

/** Checks an answer against the design's budget: text under 40,000 characters, the whole MCP response under 90,000. */
export function expectFits(answer: SizedAnswer, label: string): void {
  expect(answer.text, `${label}: text`).toBeLessThan(40_000);
  expect(answer.response, `${label}: whole response`).toBeLessThan(90_000);
}

/**
 * Connects an MCP SDK client that records the body of every HTTP response, and returns a caller that answers
 * each tool's structuredContent with the size of its text and of the whole JSON-RPC response it came in.
 */
export async function sizedMcpCaller(
  url: string,
  token: string,
): Promise<{ client: Client; call(name: string, args?: Record<string, unknown>): Promise<SizedAnswer> }> {
  let lastBody = '';
  const client = await connectMcp(url, token, async (input, init) => {
    const response = await fetch(input, init);
    lastBody = await response.clone().text();
    return response;
  });
  return {
    client,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = (result.content[0] as { type: 'text'; text: string }).text;
      if (result.isError) throw new ToolCallError(text, undefined, (result._meta as ErrorMeta | undefined)?.['dev.switchboard/error']?.code);
      if (JSON.parse(lastBody).result?.content?.[0]?.text !== text) throw new Error('the recorded response is not the one of this call');
      expectOutputSchema(name, result.structuredContent);
      return { result: result.structuredContent, text: text.length, response: lastBody.length };
    },
  };
}

/** Calls a tool through an MCP client; checks that text content and structuredContent carry the same JSON. */
export function mcpCaller(client: Client): Caller {
  return async (name, args = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = (result.content[0] as { type: 'text'; text: string }).text;
    if (result.isError) throw new ToolCallError(text, undefined, (result._meta as ErrorMeta | undefined)?.['dev.switchboard/error']?.code);
    if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(result.structuredContent)) throw new Error('text content and structuredContent differ');
    expectOutputSchema(name, result.structuredContent);
    return result.structuredContent;
  };
}

/**
 * Fails when a tool's answer has a field its outputSchema does not name (the SDK client has already checked it
 * against the listed, open schema). Every MCP call of the tests goes through here: the cut and paged answers too.
 */
export function expectOutputSchema(name: string, structured: unknown): void {
  expect(outputSchemaProblems(name, structured), `${name}'s answer against its outputSchema`).toEqual([]);
}

/** The error a refused call raises. */
export async function refusal(promise: Promise<unknown>): Promise<ToolCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolCallError) return error;
    throw error;
  }
  throw new Error('the call was expected to fail');
}

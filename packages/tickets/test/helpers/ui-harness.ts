import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MembershipStore, UserStore, openPlatformDatabase } from '@switchboard/core';
import { launchBrowser, newContext, signIn } from '@switchboard/web-kit/testing';
import { buildApp, loadConfig } from '../../src/index.ts';
import { connectMcp, startBoard, type Board } from '../helpers.ts';
import { seedBoard, type ColumnShares } from '../factories.ts';

/** The ticket board on a fresh database (project DEMO and its token `agent`), a signed-up admin, an MCP client and Chromium. */
export interface UiHarness {
  board: Board;
  /** The service's base URL (the page is served from here). */
  base: string;
  browser: Browser;
  email: string;
  password: string;
  /** An MCP SDK client over Streamable HTTP with the project token (to `mcpBase`, the same instance unless a second one runs). */
  mcp: Client;
  /** Calls a tool over MCP and answers its structuredContent; throws on isError. */
  // biome-ignore lint/suspicious/noExplicitAny: a tool's JSON, whichever of the tools answered it; each test reads and asserts the fields it expects.
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  /** Creates a user of the deployment (member of `memberOf`). */
  createUser(email: string, options?: { admin?: boolean; memberOf?: string[]; name?: string }): Promise<{ email: string; password: string; id: string }>;
  /** A new browser context (own cookies) at 1280×800 on `base`. */
  context(): Promise<BrowserContext>;
  /** A new page signed in as the admin (or `as`), at `path`. */
  signedInPage(path?: string, as?: { email: string; password: string }): Promise<Page>;
  /** Seeds tickets through the store (ten thousand in about a second). */
  seed(shares: ColumnShares, documents?: number): Promise<void>;
  close(): Promise<void>;
}

/** Options: the dialect, and a second instance on the same database that receives the MCP calls. */
export interface UiHarnessOptions {
  dialect?: 'sqlite' | 'postgres';
  secondInstance?: boolean;
}

/** Starts the service (and a second instance when asked), Chromium and an MCP client; `close()` stops them. */
export async function startUiHarness(options: UiHarnessOptions = {}): Promise<UiHarness> {
  const board = await startBoard(options.dialect ?? 'sqlite');
  const platform = await openPlatformDatabase(board.env);
  const users = new UserStore(platform.db);
  const memberships = new MembershipStore(platform.db);
  const email = 'admin@example.com';
  const password = 'correct horse battery';
  await users.create({ email, password, admin: true, name: 'Ada Admin' });

  let second: Awaited<ReturnType<typeof buildApp>> | undefined;
  let mcpBase = board.url;
  if (options.secondInstance) {
    second = await buildApp(loadConfig(board.env));
    await second.listen({ host: '127.0.0.1', port: 0 });
    mcpBase = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
  }
  const mcp = await connectMcp(mcpBase, board.token);
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  const context = async () => {
    const created = await newContext(browser, board.url);
    contexts.push(created);
    return created;
  };
  return {
    board,
    base: board.url,
    browser,
    email,
    password,
    mcp,
    async call(name, args = {}) {
      const result = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: unknown; content?: Array<{ text?: string }> };
      if (result.isError) throw new Error(`${name} failed: ${result.content?.[0]?.text}`);
      return result.structuredContent;
    },
    async createUser(userEmail, userOptions = {}) {
      const created = await users.create({ email: userEmail, password: 'member password 1', admin: userOptions.admin, name: userOptions.name });
      for (const key of userOptions.memberOf ?? []) await memberships.add('tickets', key, created.user.id);
      return { email: created.user.email, password: 'member password 1', id: created.user.id };
    },
    context,
    async signedInPage(path = '/', as = { email, password }) {
      const page = await (await context()).newPage();
      await page.goto(path);
      await signIn(page, as.email, as.password);
      return page;
    },
    async seed(shares, documents = 0) {
      await seedBoard(board.env, board.projectKey, shares, documents);
    },
    async close() {
      for (const created of contexts) await created.close().catch(() => {});
      await browser.close().catch(() => {});
      await mcp.close().catch(() => {});
      // Open event streams would hold close() until they time out.
      board.app.server.closeAllConnections();
      if (second) {
        second.server.closeAllConnections();
        await second.close();
      }
      await platform.close();
      await board.close();
    },
  };
}

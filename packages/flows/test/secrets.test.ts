import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { UserStore, decryptCredential, listen, openPlatformDatabase, type App } from '@switchboard/core';
import { buildApp, loadConfig } from '../src/index.ts';
import { startAgentHarness, toolFlow, type AgentHarness } from './helpers/agent-harness.ts';
import { EchoTool } from './helpers/echo-tool.ts';

// Values with characters that change when a URL, a form or JSON escapes them, so every echoed form is seen.
const API_KEY = 'sk-live/Secret+Value&x=1 "quoted"';
const OTHER = 'other-secret-5678\\end';
/** Every form in which a value could leak: as it is, percent-encoded (component, form, a URL's query and path), JSON-escaped once or twice. */
const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
const LEAKS = [API_KEY, OTHER]
  .flatMap((v) => [
    v,
    encodeURIComponent(v),
    new URLSearchParams({ v }).toString().slice(2),
    new URL(`http://x/?${v}`).search.slice(1),
    new URL(`http://x/${v}`).pathname.slice(1),
  ])
  .flatMap((form) => [form, escaped(form), escaped(escaped(form))]);

/** Fails when any form of a secret value appears in `where`. */
function expectNoSecret(where: unknown, label: string): void {
  const text = typeof where === 'string' ? where : JSON.stringify(where);
  for (const leak of LEAKS) expect(text.includes(leak), `${label} holds a secret (${leak})`).toBe(false);
}

/** A line of a run's JSON Lines stream, with the fields these tests read (`result`: what the echo tool answered, on tool_result lines). */
interface StreamLine {
  type: string;
  run_id?: string;
  error?: string;
  result: { headers: Record<string, string>; body: string };
}

// biome-ignore lint/suspicious/noExplicitAny: as Response.json() types it; each test reads and asserts the fields of the answer it expects.
const json = async (response: Response) => (await response.json()) as any;

describe.each(dialectsUnderTest())('flow secrets on %s', (dialect) => {
  let h: AgentHarness;
  let echo: EchoTool;
  /** A second app on the same database that logs everything, at debug level, into `logs`. */
  let logged: App;
  let loggedBase = '';
  const logs: string[] = [];

  beforeAll(async () => {
    h = await startAgentHarness(dialect);
    echo = await new EchoTool().start('127.0.0.2');
    logged = await buildApp(loadConfig({ ...h.db.env, FLOWS_PORT: '0', LOG_LEVEL: 'debug', FLOWS_ALLOWED_HOSTS: '127.0.0.2' }), {
      logDestination: { write: (line) => void logs.push(line) },
    });
    loggedBase = await listen(logged, '127.0.0.1', 0);
  });
  afterAll(async () => {
    logged?.server.closeAllConnections();
    await logged?.close();
    await echo?.close();
    await h?.close();
  });

  /** A request to the logging app with the manage token. */
  const call = (method: string, path: string, body?: unknown, token = h.manageToken) =>
    fetch(`${loggedBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** Runs a flow on the logging app, streaming JSON Lines. */
  const stream = async (slug: string, question = 'go') =>
    (await (await call('POST', `/api/llm/acme/flows/${slug}/run`, { input: { question }, stream: true }, h.runToken)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as StreamLine);
  const runRecord = async (events: StreamLine[]) => {
    const id = events.find((e) => e.type === 'run')?.run_id ?? events.at(-1)!.run_id;
    return json(await call('GET', `/api/llm/acme/runs/${id}`));
  };

  describe('the API', () => {
    it('answers 401 without a token and 403 for a run token', async () => {
      expect((await fetch(`${loggedBase}/api/llm/acme/secrets`)).status).toBe(401);
      const refused = await call('PUT', '/api/llm/acme/secrets/API_KEY', { value: API_KEY }, h.runToken);
      expect(refused.status).toBe(403);
      expect((await json(refused)).error.code).toBe('permission_denied');
    });

    it('refuses a bad name, a bad value and a malformed body with 400, never quoting the value', async () => {
      const badName = await call('PUT', '/api/llm/acme/secrets/9lives', { value: API_KEY });
      expect(badName.status).toBe(400);
      expect(await json(badName)).toEqual({
        error: {
          message: 'Secret name must be 1-64 letters, digits and "_", not starting with a digit (e.g. GITHUB_TOKEN)',
          type: 'invalid_request_error',
          param: 'name',
          code: 'invalid_secret_name',
        },
      });
      const empty = await call('PUT', '/api/llm/acme/secrets/API_KEY', { value: '' });
      expect(empty.status).toBe(400);
      expect(await json(empty)).toEqual({
        error: {
          message: '"value" must be a non-empty string of at most 65536 characters',
          type: 'invalid_request_error',
          param: 'value',
          code: 'invalid_secret_value',
        },
      });
      const long = await call('PUT', '/api/llm/acme/secrets/API_KEY', { value: `${API_KEY}${'x'.repeat(70_000)}` });
      expect(long.status).toBe(400);
      expectNoSecret(await long.text(), 'the answer to a value too long');
      const notString = await call('PUT', '/api/llm/acme/secrets/API_KEY', { value: 12345 });
      expect(notString.status).toBe(400);
      const malformed = await call('PUT', '/api/llm/acme/secrets/API_KEY', `{"value": ${API_KEY}}`);
      expect(malformed.status).toBe(400);
      expect((await json(malformed)).error).toEqual({
        message: 'Malformed JSON body: expected {"value": "…"} (the body is not quoted: it holds a secret)',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_json',
      });
      expect((await json(await call('GET', '/api/llm/acme/secrets'))).secrets).toEqual([]);
    });

    it('sets, lists (names and dates, never values), replaces and deletes; values are stored encrypted', async () => {
      const set = await call('PUT', '/api/llm/acme/secrets/API_KEY', { value: 'first value' });
      expect(set.status).toBe(200);
      const first = await json(set);
      expect(first).toEqual({ name: 'API_KEY', created_at: expect.any(String), updated_at: first.created_at, last_used_at: null, set: true });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const replaced = await json(await call('PUT', '/api/llm/acme/secrets/API_KEY', { value: API_KEY }));
      expect(replaced.created_at).toBe(first.created_at);
      expect(replaced.updated_at > first.updated_at).toBe(true);
      expect((await call('PUT', '/api/llm/acme/secrets/OTHER', { value: OTHER })).status).toBe(200);
      const listing = await json(await call('GET', '/api/llm/acme/secrets'));
      expect(listing).toEqual({
        secrets: [
          { name: 'API_KEY', created_at: first.created_at, updated_at: replaced.updated_at, last_used_at: null },
          { name: 'OTHER', created_at: expect.any(String), updated_at: expect.any(String), last_used_at: null },
        ],
      });
      expectNoSecret(listing, 'the listing');
      const rows = await h.stores.database.db.selectFrom('secrets').select(['name', 'value']).where('org_id', '=', h.orgId).orderBy('name').execute();
      expectNoSecret(rows, 'the stored rows');
      expect(rows.map((row) => decryptCredential(loadConfig(h.db.env).secret, row.value))).toEqual([API_KEY, OTHER]);

      expect((await call('PUT', '/api/llm/acme/secrets/SPARE', { value: 'spare' })).status).toBe(200);
      const deleted = await call('DELETE', '/api/llm/acme/secrets/SPARE');
      expect(deleted.status).toBe(200);
      expect(await json(deleted)).toEqual({ deleted: true });
      const again = await call('DELETE', '/api/llm/acme/secrets/SPARE');
      expect(again.status).toBe(404);
      expect((await json(again)).error).toEqual({ message: 'Secret "SPARE" not found', type: 'not_found_error', param: 'name', code: 'secret_not_found' });
      expect((await json(await call('GET', '/api/llm/acme/secrets'))).secrets.map((s: { name: string }) => s.name)).toEqual(['API_KEY', 'OTHER']);
    });

    it('lets a signed-in user manage them (a session counts as manage)', async () => {
      const platform = await openPlatformDatabase(h.db.env);
      try {
        await new UserStore(platform.db).create({ email: 'keeper@example.com', password: 'keeper-password', admin: true });
      } finally {
        await platform.close();
      }
      const signIn = await fetch(`${loggedBase}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'keeper@example.com', password: 'keeper-password' }),
      });
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
      const headers = { cookie, origin: new URL(loggedBase).origin, 'content-type': 'application/json' };
      expect(
        (await fetch(`${loggedBase}/api/llm/acme/secrets/SESSION_SET`, { method: 'PUT', headers, body: JSON.stringify({ value: 'from the dashboard' }) }))
          .status,
      ).toBe(200);
      const listed = await json(await fetch(`${loggedBase}/api/llm/acme/secrets`, { headers: { cookie } }));
      expect(listed.secrets.map((s: { name: string }) => s.name)).toContain('SESSION_SET');
      expect(JSON.stringify(listed)).not.toContain('from the dashboard');
      expect((await fetch(`${loggedBase}/api/llm/acme/secrets/SESSION_SET`, { method: 'DELETE', headers: { cookie, origin: headers.origin } })).status).toBe(
        200,
      );
    });
  });

  describe('saving flows', () => {
    it('refuses a secret outside a tool request, naming the node, and an unknown secret', async () => {
      const inPrompt = toolFlow('leaky', 'echo', []);
      (inPrompt.nodes[1].data as Record<string, unknown>).prompt = 'Key: {{secrets.API_KEY}}';
      const refused = await call('POST', '/api/llm/acme/flows', inPrompt);
      expect(refused.status).toBe(422);
      expect((await json(refused)).error).toMatchObject({
        message: `Node "answer": {{secrets.API_KEY}} may only be used in an HTTP tool's URL, headers or body, or an MCP tool's headers, so that a secret never reaches a model or a reply`,
        param: 'nodes[1].data.prompt',
        code: 'invalid_flow',
      });
      const unknown = toolFlow('unknown-secret', 'echo', [
        { id: 'api', data: { kind: 'http', name: 'call_api', request: { url: `${echo.base}/echo`, headers: { 'X-Key': '{{secrets.NOPE}}' } } } },
      ]);
      const refusedUnknown = await call('POST', '/api/llm/acme/flows', unknown);
      expect(refusedUnknown.status).toBe(422);
      expect((await json(refusedUnknown)).error.message).toBe(
        'Node "api": unknown secret {{secrets.NOPE}}: the organization has no secret "NOPE" (set it first)',
      );
    });
  });

  describe('running flows', () => {
    const httpTool = (path: string) => ({
      id: 'api',
      data: {
        kind: 'http',
        name: 'call_api',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        request: {
          method: 'POST',
          url: `${echo.base}${path}?key={{secrets.API_KEY}}&q={{args.q}}`,
          headers: { Authorization: 'Bearer {{secrets.API_KEY}}', 'X-Other': '{{secrets.OTHER}}' },
          body: { token: '{{secrets.API_KEY}}', nested: ['a {{secrets.OTHER}} b'] },
        },
      },
    });

    it('sends the values to the tool, and masks them in the stream, the trace, the model, the reply, the run record and the logs', async () => {
      h.model.plans.set('secret-echo', [[{ name: 'call_api', args: { q: 'hi' } }]]);
      const saved = await call('POST', '/api/llm/acme/flows', toolFlow('secret-echo', 'plan:secret-echo', [httpTool('/echo')]));
      expect(saved.status).toBe(201);
      expectNoSecret(await json(await call('GET', '/api/llm/acme/flows/secret-echo')), 'the definition');
      echo.requests.length = 0;
      const events = await stream('secret-echo');

      // The tool got the real values.
      expect(echo.requests).toHaveLength(1);
      const sent = echo.requests[0];
      expect(sent.url).toBe(`/echo?key=${API_KEY}&q=hi`.replace(/ /g, '%20').replace(/"/g, '%22'));
      expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(sent.headers['x-other']).toBe(OTHER);
      expect(JSON.parse(sent.body)).toEqual({ token: API_KEY, nested: [`a ${OTHER} b`] });

      // Everything that came back is masked.
      const result = events.find((e) => e.type === 'tool_result')!;
      expect(result.result.headers.authorization).toBe('Bearer ***');
      expect(result.result.headers['x-other']).toBe('***');
      expect(JSON.parse(result.result.body)).toEqual({ token: '***', nested: ['a *** b'] });
      expectNoSecret(events, 'the stream');
      expect(events.at(-1)!.type).toBe('done');
      const record = await runRecord(events);
      expect(record.status).toBe('succeeded');
      expect(record.trace.find((t: { node: string }) => t.node === 'answer').tool_calls[0].result.headers.authorization).toBe('Bearer ***');
      expectNoSecret(record, 'the run record');
      expectNoSecret(await json(await call('GET', '/api/llm/acme/runs?limit=100')), 'the runs listing');
      expectNoSecret(
        h.model.calls.filter((c) => c.model === 'plan:secret-echo'),
        'what the model was sent',
      );
      expectNoSecret(logs, 'the log lines');
      // Used: the listing says when.
      const listed = (await json(await call('GET', '/api/llm/acme/secrets'))).secrets;
      expect(listed.every((s: { last_used_at: string | null }) => s.last_used_at !== null)).toBe(true);
    });

    it('masks them in a text answer (JSON-escaped) and in the error of a tool that refuses, quoting the request', async () => {
      h.model.plans.set('secret-text', [[{ name: 'call_api', args: { q: 'a' } }], [{ name: 'refuse_api', args: { q: 'b' } }]]);
      const refusing = httpTool('/refuse');
      refusing.id = 'refuse';
      refusing.data.name = 'refuse_api';
      await call('POST', '/api/llm/acme/flows', toolFlow('secret-text', 'plan:secret-text', [httpTool('/echo-text'), refusing]));
      echo.requests.length = 0;
      const events = await stream('secret-text');
      expect(echo.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${API_KEY}`, `Bearer ${API_KEY}`]);
      const results = events.filter((e) => e.type === 'tool_result');
      expect(typeof results[0].result).toBe('string');
      expect(results[0].result).toContain('"authorization":"Bearer ***"');
      expect(results[1].error).toMatch(/^HTTP 401: \{"method":"POST","url":"\/refuse\?key=\*\*\*/);
      expect(results[1].error).toContain('"authorization":"Bearer ***"');
      expectNoSecret(events, 'the stream');
      expectNoSecret(await runRecord(events), 'the run record');
      expectNoSecret(
        h.model.calls.filter((c) => c.model === 'plan:secret-text'),
        'what the model was sent',
      );
      expectNoSecret(logs, 'the log lines');
    });

    it("sends an MCP tool's header secret to its server and masks it in the tools' names, descriptions, results and errors", async () => {
      h.model.plans.set('secret-mcp', [[{ name: 'whoami', args: {} }], [{ name: 'fail', args: {} }]]);
      const mcp = { id: 'board', data: { kind: 'mcp', url: `${echo.base}/mcp`, headers: { Authorization: 'Bearer {{secrets.API_KEY}}' } } };
      expect((await call('POST', '/api/llm/acme/flows', toolFlow('secret-mcp', 'plan:secret-mcp', [mcp]))).status).toBe(201);
      echo.requests.length = 0;
      const events = await stream('secret-mcp');
      expect(echo.requests.length).toBeGreaterThan(0);
      for (const request of echo.requests) expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      const results = events.filter((e) => e.type === 'tool_result');
      expect(results[0].result.headers.authorization).toBe('Bearer ***');
      expect(results[1].error).toBe('no access for Bearer ***');
      const seen = h.model.calls.find((c) => c.model === 'plan:secret-mcp')!.body.tools!.map((t) => (t.function as { description?: string }).description);
      expect(seen).toContain('Says who you are (you sent Bearer ***)');
      expectNoSecret(events, 'the stream');
      expectNoSecret(await runRecord(events), 'the run record');
      expectNoSecret(
        h.model.calls.filter((c) => c.model === 'plan:secret-mcp'),
        'what the model was sent',
      );
      expectNoSecret(logs, 'the log lines');
    });

    it('masks them in the error of an MCP server that refuses the connection, quoting the header', async () => {
      h.model.plans.set('secret-mcp-refused', [[{ name: 'board', args: {} }]]);
      const mcp = { id: 'board', data: { kind: 'mcp', url: `${echo.base}/mcp-refuse`, headers: { Authorization: 'Bearer {{secrets.API_KEY}}' } } };
      await call('POST', '/api/llm/acme/flows', toolFlow('secret-mcp-refused', 'plan:secret-mcp-refused', [mcp]));
      const events = await stream('secret-mcp-refused');
      const result = events.find((e) => e.type === 'tool_result')!;
      expect(result.error).toMatch(/^MCP server of tool node "board" unavailable: /);
      expect(result.error).toContain('refused Bearer ***');
      expectNoSecret(events, 'the stream');
      expectNoSecret(await runRecord(events), 'the run record');
      expectNoSecret(logs, 'the log lines');
    });

    it('fails only the tool call, with a clear tool error, when a secret was deleted after the save', async () => {
      await call('PUT', '/api/llm/acme/secrets/DOOMED', { value: 'doomed-value-1234' });
      h.model.plans.set('secret-deleted', [[{ name: 'call_api', args: {} }], [{ name: 'board', args: {} }]]);
      const api = { id: 'api', data: { kind: 'http', name: 'call_api', request: { url: `${echo.base}/echo`, headers: { 'X-Doomed': '{{secrets.DOOMED}}' } } } };
      const mcp = { id: 'board', data: { kind: 'mcp', url: `${echo.base}/mcp`, headers: { Authorization: 'Bearer {{secrets.DOOMED}}' } } };
      expect((await call('POST', '/api/llm/acme/flows', toolFlow('secret-deleted', 'plan:secret-deleted', [api, mcp]))).status).toBe(201);
      expect((await call('DELETE', '/api/llm/acme/secrets/DOOMED')).status).toBe(200);
      echo.requests.length = 0;
      const events = await stream('secret-deleted');
      expect(echo.requests).toEqual([]);
      const errors = events.filter((e) => e.type === 'tool_result').map((e) => e.error);
      expect(errors).toEqual([
        'Tool node "api" cannot send its request: secret "DOOMED" is not set (deleted after the flow was saved?); set it again under the organization\'s secrets',
        'Tool node "board" cannot send its request: secret "DOOMED" is not set (deleted after the flow was saved?); set it again under the organization\'s secrets',
      ]);
      expect(events.at(-1)!.type).toBe('done');
      expect((await runRecord(events)).status).toBe('succeeded');
    });
  });

  describe('flows saved before secrets existed', () => {
    it('keep working: a literal header is sent as it is, and a node named "secrets" is still that node', async () => {
      h.model.plans.set('legacy', [[{ name: 'call_api', args: {} }]]);
      const definition = toolFlow('legacy', 'plan:legacy', [
        {
          id: 'api',
          data: {
            kind: 'http',
            name: 'call_api',
            request: { url: `${echo.base}/echo`, headers: { Authorization: 'Bearer literal-token', 'X-Legacy': '{{secrets.text}}' } },
          },
        },
      ]);
      // Saved before "secrets" was a reserved id: stored as it is, without today's validation.
      definition.nodes.splice(1, 0, { id: 'secrets', type: 'template', data: { template: 'from the node' } });
      definition.edges = [{ from: 'input', to: 'secrets' }, { from: 'secrets', to: 'answer' }, ...definition.edges.filter((e) => e.from !== 'input')];
      await h.stores.flows.save(h.orgId, definition as never, { author: null, note: null });
      echo.requests.length = 0;
      const events = await stream('legacy');
      expect(events.at(-1)!.type).toBe('done');
      expect(echo.requests.map((r) => [r.headers.authorization, r.headers['x-legacy']])).toEqual([['Bearer literal-token', 'from the node']]);
    });
  });
});

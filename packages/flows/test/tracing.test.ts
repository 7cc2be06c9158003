import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { ConfigError, listen, type App } from '@switchboard/core';
import { buildApp, loadConfig } from '../src/index.ts';
import { loadTracingConfig } from '../src/tracing/otel-config.ts';
import { startAgentHarness, toolFlow, type AgentHarness } from './helpers/agent-harness.ts';
import { simpleFlow } from './helpers/harness.ts';
import { EchoTool } from './helpers/echo-tool.ts';
import { OtlpReceiver, type ReceivedSpan } from './helpers/otlp-receiver.ts';

const SECRET = 'sk-trace-secret-4242';
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

/** A flows app on the harness's database, exporting traces as `env` says, its log lines kept in `logs`. */
async function tracedApp(h: AgentHarness, env: Record<string, string>, logs: string[] = []): Promise<{ app: App; base: string }> {
  const config = loadConfig({ ...h.db.env, FLOWS_PORT: '0', LOG_LEVEL: 'info', FLOWS_ALLOWED_HOSTS: '127.0.0.2', OTEL_BSP_SCHEDULE_DELAY: '20', ...env });
  const app = await buildApp(config, { logDestination: { write: (line) => void logs.push(line) } });
  return { app, base: await listen(app, '127.0.0.1', 0) };
}

const byName = (spans: ReceivedSpan[], name: string) => spans.find((s) => s.name === name);

describe('OTLP configuration from the standard variables', () => {
  it('reads the endpoint, protocol, headers and timeout; no endpoint means no tracing', () => {
    expect(loadTracingConfig({})).toBeUndefined();
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(
      loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D,tenant=t1' }),
    ).toMatchObject({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: { 'x-api-key': 'abc=', tenant: 't1' },
      timeoutMs: 10_000,
    });
    expect(
      loadTracingConfig({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }),
    ).toMatchObject({
      url: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
      protocol: 'http/json',
    });
  });

  it('refuses gRPC and malformed values, naming the variable', () => {
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(ConfigError);
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL.*grpc is not supported/,
    );
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
  });
});

describe.each(dialectsUnderTest())('run traces over OTLP/HTTP on %s', (dialect) => {
  let h: AgentHarness;
  let echo: EchoTool;
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    h = await startAgentHarness(dialect);
    echo = await new EchoTool().start('127.0.0.2');
    receiver = await new OtlpReceiver().start();
    await h.put('/api/llm/acme/secrets/API_KEY', { value: SECRET });
    await h.put('/api/llm/acme/providers/local/prices', { models: { 'reply:hi': { input_per_mtok: 1000, output_per_mtok: 2000 } } });
    await h.save(simpleFlow({ slug: 'spanned', model: 'reply:hi', format: 'raw' }));
    h.model.plans.set('traced', [[{ name: 'call_api', args: { q: 'hi' } }]]);
    const tool = {
      id: 'api',
      data: {
        kind: 'http',
        name: 'call_api',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        request: { method: 'POST', url: `${echo.base}/echo?q={{args.q}}`, headers: { 'X-Key': '{{secrets.API_KEY}}' } },
      },
    };
    await h.save(toolFlow('agentic', 'plan:traced', [tool]));
  });
  afterAll(async () => {
    await receiver?.close();
    await echo?.close();
    await h?.close();
  });

  it("sends a span per run, node and model call with the GenAI attributes, as a child of the caller's traceparent, and answers the run's own", async () => {
    const { app, base } = await tracedApp(h, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    try {
      const response = await fetch(`${base}/api/llm/acme/flows/spanned/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
        body: JSON.stringify({ input: { question: 'Where is my order?' } }),
      });
      expect([response.status, await response.text()]).toEqual([200, 'hi']);
      const traceparent = response.headers.get('traceparent')!;
      expect(traceparent).toMatch(new RegExp(`^00-${CALLER_TRACE}-[0-9a-f]{16}-01$`));
      const spans = (await receiver.waitFor((s) => s.some((x) => x.name === 'invoke_workflow spanned'))).filter((s) => s.traceId === CALLER_TRACE);
      expect(receiver.contentTypes[0]).toBe('application/json');
      const root = byName(spans, 'invoke_workflow spanned')!;
      expect(root.spanId).toBe(traceparent.split('-')[2]);
      expect(root.parentSpanId).toBe(CALLER_SPAN);
      expect(root.resource['service.name']).toBe('switchboard-flows');
      expect(root.attributes).toEqual({
        'gen_ai.operation.name': 'invoke_workflow',
        'gen_ai.workflow.name': 'spanned',
        'switchboard.flow.slug': 'spanned',
        'switchboard.flow.version': 1,
        'switchboard.run.id': response.headers.get('x-run-id'),
        'switchboard.org': 'acme',
        'switchboard.trigger': 'api',
        'gen_ai.usage.input_tokens': 7,
        'gen_ai.usage.output_tokens': 1,
        'switchboard.run.status': 'succeeded',
        'switchboard.cost_usd': 0.009,
        'switchboard.cost_priced': true,
      });
      const nodes = ['input', 'answer', 'output'].map((id) => byName(spans, `node ${id}`)!);
      expect(nodes.map((n) => [n.parentSpanId, n.attributes['switchboard.node.status']])).toEqual(nodes.map(() => [root.spanId, 'succeeded']));
      // A streaming answer carries the run's traceparent in its headers too.
      const streamed = await fetch(`${base}/api/llm/acme/flows/spanned/run/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { question: 'q' } }),
      });
      expect(streamed.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(streamed.headers.get('traceparent')!.split('-')[1]).not.toBe(CALLER_TRACE);
      await streamed.text();
      const chat = byName(spans, 'chat reply:hi')!;
      expect(chat.parentSpanId).toBe(nodes[1].spanId);
      expect(chat.kind).toBe(3);
      expect(chat.attributes).toEqual({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'local',
        'gen_ai.request.model': 'reply:hi',
        'gen_ai.request.stream': false,
        'switchboard.provider.connection': 'local',
        'gen_ai.response.model': 'reply:hi',
        'gen_ai.usage.input_tokens': 7,
        'gen_ai.usage.output_tokens': 1,
        'gen_ai.response.finish_reasons': ['stop'],
        'switchboard.cost_usd': 0.009,
        'switchboard.cost_priced': true,
      });
    } finally {
      await app.close();
    }
  });

  it('sends tool calls as spans in protobuf, content only when captured, secrets masked either way', async () => {
    for (const capture of ['false', 'true']) {
      const from = receiver.spans.length;
      const { app, base } = await tracedApp(h, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, FLOWS_OTEL_CAPTURE_CONTENT: capture });
      try {
        const response = await fetch(`${base}/api/llm/acme/flows/agentic/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ input: { question: 'Call it' } }),
        });
        expect(response.status).toBe(200);
        await receiver.waitFor((s) => s.slice(from).some((x) => x.name === 'invoke_workflow agentic'));
      } finally {
        await app.close();
      }
      const spans = receiver.spans.slice(from);
      expect(receiver.contentTypes.at(-1)).toBe('application/x-protobuf');
      const tool = byName(spans, 'execute_tool call_api')!;
      expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'call_api', 'gen_ai.tool.type': 'function' });
      expect(tool.parentSpanId).toBe(byName(spans, 'node answer')!.spanId);
      const chats = spans.filter((s) => s.name === 'chat plan:traced');
      expect(chats.length).toBe(2);
      if (capture === 'false') {
        expect(Object.keys(tool.attributes).filter((k) => k.startsWith('gen_ai.tool.call.'))).toEqual(['gen_ai.tool.call.id']);
        expect(chats.every((c) => c.attributes['gen_ai.input.messages'] === undefined)).toBe(true);
      } else {
        expect(JSON.parse(tool.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ q: 'hi' });
        // The echo answers with the request's headers: the secret sent in X-Key comes back masked.
        expect(JSON.parse(tool.attributes['gen_ai.tool.call.result'] as string).headers['x-key']).toBe('***');
        expect(chats[0].attributes['gen_ai.input.messages']).toContain('Call it');
      }
      for (const body of receiver.bodies) expect(body.includes(SECRET)).toBe(false);
    }
  });

  it('runs unaffected by a collector that is down or does not answer, with one warning per interval', async () => {
    for (const env of [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_EXPORTER_OTLP_TIMEOUT: '200' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT: '200' },
    ]) {
      receiver.hold = env.OTEL_EXPORTER_OTLP_ENDPOINT === receiver.url;
      const logs: string[] = [];
      const { app, base } = await tracedApp(h, env, logs);
      try {
        for (let i = 0; i < 5; i++) {
          const response = await fetch(`${base}/api/llm/acme/flows/spanned/run`, {
            method: 'POST',
            headers: { authorization: `Bearer ${h.runToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ input: { question: 'q' } }),
          });
          expect([response.status, await response.text()]).toEqual([200, 'hi']);
          // Long enough for a batch to be sent and to fail (or time out) between runs.
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        const warnings = logs.map((line) => JSON.parse(line)).filter((line) => line.msg.startsWith('could not export run traces'));
        expect(warnings.length).toBe(1);
        expect(warnings[0]).toMatchObject({ level: 40, otlp_url: `${env.OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces` });
      } finally {
        await app.close();
      }
    }
    receiver.hold = false;
  });

  it('sends nothing and answers no traceparent without an endpoint', async () => {
    const response = await h.post('/api/llm/acme/flows/spanned/run', { input: { question: 'q' } }, h.runToken);
    expect([response.status, response.headers.get('traceparent')]).toEqual([200, null]);
  });
});

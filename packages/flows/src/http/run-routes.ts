import type { App } from '@switchboard/core';
import { FlowsError } from '../domain/errors.ts';
import { validateInput } from '../domain/input-variables.ts';
import { parseChatBody, parseRunBody } from '../domain/run-request.ts';
import { FLOW_MODEL } from '../domain/response-shapes.ts';
import type { RunService, LoadedFlow } from '../engine/run-service.ts';
import { answerRun } from './run-transport.ts';
import type { Principal } from '../store/org-store.ts';
import type { FastifyRequest } from 'fastify';
import type { TraceCarrier } from '../tracing/otel-tracing.ts';
import type { RunTrigger } from '../store/run-store.ts';
import { bearer, chatBody, flowParams, runBody } from './schema.ts';

function checkedInput(flow: LoadedFlow, input: Record<string, unknown>): Record<string, unknown> {
  const checked = validateInput(flow.compiled.variables, input);
  if (!checked.ok) {
    const message = `Input does not match the flow's Input node: ${checked.problems.map((p) => p.message).join('; ')}`;
    throw new FlowsError('validation_failed', message, 'invalid_input', { param: checked.problems[0].param, details: checked.problems });
  }
  return checked.input;
}

/**
 * What started a run called over HTTP: the dashboard (a signed-in user's session: no token, and the
 * `manage` access a session has) or the API (a flows token, or an OAuth token, whose access is `run`).
 */
function triggerOf(principal: Principal): RunTrigger {
  return principal.tokenId === null && principal.scope === 'manage' ? 'ui' : 'api';
}

/** The caller's W3C trace context headers. */
function carrierOf(request: FastifyRequest): TraceCarrier {
  return { traceparent: request.headers.traceparent, tracestate: request.headers.tracestate };
}

/** `POST …/run`, `…/run/stream`, and the OpenAI-compatible `…/chat/completions` and `…/models`. */
export function registerRunRoutes(app: App, deps: { runs: RunService }): void {
  const { runs } = deps;
  const tags = ['run'];

  // Route declarations: the run endpoints' options share a shape, each with its own path, body and answer.
  app.post(
    '/api/llm/:org_code/flows/:slug/run',
    {
      config: { scope: 'run', loadsFlow: true },
      schema: { tags, summary: 'Run a flow (JSON Lines with "stream": true)', params: flowParams, body: runBody, security: bearer },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const flow = await runs.load(principal.orgId, request.params.slug, principal.flow);
      const body = parseRunBody(request.body);
      const input = checkedInput(flow, body.input);
      const plan = { principal, flow, input, metadata: body.metadata, conversation: [], trigger: triggerOf(principal), traceCarrier: carrierOf(request) };
      return answerRun(runs, plan, reply, body.stream ? 'jsonl' : 'json').then(() => reply);
    },
  );

  app.post(
    '/api/llm/:org_code/flows/:slug/run/stream',
    {
      config: { scope: 'run', loadsFlow: true },
      schema: { tags, summary: 'Run a flow, streaming Server-Sent Events', params: flowParams, body: runBody, security: bearer },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const flow = await runs.load(principal.orgId, request.params.slug, principal.flow);
      const body = parseRunBody(request.body);
      const input = checkedInput(flow, body.input);
      const plan = { principal, flow, input, metadata: body.metadata, conversation: [], trigger: triggerOf(principal), traceCarrier: carrierOf(request) };
      // Returned, not awaited: a held stream does not keep this handler's frame suspended.
      return answerRun(runs, plan, reply, 'sse').then(() => reply);
    },
  );

  app.post(
    '/api/llm/:org_code/flows/:slug/chat/completions',
    {
      config: { scope: 'run', loadsFlow: true },
      schema: { tags: ['openai'], summary: 'OpenAI-compatible chat completion', params: flowParams, body: chatBody, security: bearer },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const flow = await runs.load(principal.orgId, request.params.slug, principal.flow);
      const body = parseChatBody(request.body, flow.compiled.variables);
      const input = checkedInput(flow, body.input);
      const plan = {
        principal,
        flow,
        input,
        metadata: body.metadata,
        conversation: body.conversation,
        callerSystem: body.callerSystem,
        trigger: triggerOf(principal),
        traceCarrier: carrierOf(request),
      };
      return answerRun(runs, plan, reply, body.stream ? 'sse' : 'chat').then(() => reply);
    },
  );

  const model = (created: number, owner: string) => ({ id: FLOW_MODEL, object: 'model', created, owned_by: owner });
  app.get(
    '/api/llm/:org_code/flows/:slug/models',
    {
      config: { scope: 'run', loadsFlow: true },
      schema: { tags: ['openai'], summary: 'OpenAI-compatible model list (service-flow)', params: flowParams, security: bearer },
    },
    async (request) => {
      const principal = request.principal!;
      await runs.load(principal.orgId, request.params.slug, principal.flow);
      return { object: 'list', data: [model(0, principal.orgCode)] };
    },
  );
  app.get(
    '/api/llm/:org_code/flows/:slug/models/:model',
    { config: { scope: 'run', loadsFlow: true }, schema: { tags: ['openai'], summary: 'OpenAI-compatible model lookup', hide: true } },
    async (request) => {
      const params = request.params as { org_code: string; slug: string; model: string };
      const principal = request.principal!;
      await runs.load(principal.orgId, params.slug, principal.flow);
      if (params.model !== FLOW_MODEL)
        throw new FlowsError('not_found', `Model "${params.model}" not found; flows answer as "${FLOW_MODEL}"`, 'model_not_found', { param: 'model' });
      return model(0, principal.orgCode);
    },
  );
}

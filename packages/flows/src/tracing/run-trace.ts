/**
 * A run as OpenTelemetry spans (design/flows.md, "Traces"): the run, each node, each model call and each
 * tool call, named and attributed by the GenAI semantic conventions. Content (prompts, answers, tool
 * arguments and results) only when capture is on; every string that leaves passes the run's secret mask.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { Cost } from '../domain/cost.ts';
import type { Usage } from '../domain/usage.ts';

/** What the root span of a run says about it. */
export interface RunSpanInfo {
  slug: string;
  version: number;
  runId: string;
  orgCode: string;
  trigger: string;
  schedule?: string | null;
  /** The run's input: on the span only when content is captured. */
  input?: unknown;
}

/** A model call as its span describes it. */
export interface ModelCallInfo {
  /** The connection's kind (`openai`, `anthropic`, `openai-compatible`) and name. */
  kind: string;
  connection: string;
  model: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
  /** Only read when content is captured. */
  system?: string;
  messages?: ReadonlyArray<{ role: string; content: unknown }>;
}

/** How a model call ended. */
export interface ModelCallEnd {
  usage: Usage;
  finishReason: string;
  responseModel?: string;
  cost: Cost;
  /** Only read when content is captured. */
  text?: string;
}

/** Masks secret values in text (engine/tool-secrets.ts's SecretMask). */
export interface TextMask {
  text(text: string): string;
}

/** The masks of the secret values a run's spans must never carry: one per (sub-)flow run, all applied; shared by its sub-runs. */
class RunSecrets {
  private readonly masks = new Map<object, TextMask>();

  set(owner: object, mask: TextMask): void {
    this.masks.set(owner, mask);
  }

  readonly mask: TextMask = {
    text: (text) => {
      let out = text;
      for (const mask of this.masks.values()) out = mask.text(out);
      return out;
    },
  };
}

function errorOf(error: unknown): { type: string; message: string } {
  const code = (error as { apiCode?: unknown; code?: unknown } | null)?.apiCode ?? (error as { code?: unknown } | null)?.code;
  return {
    type: typeof code === 'string' ? code : error instanceof Error ? error.name : 'error',
    message: error instanceof Error ? error.message : String(error),
  };
}

/** Spans of one run and the settings they share. */
export class SpanFactory {
  constructor(
    readonly tracer: Tracer,
    /** FLOWS_OTEL_CAPTURE_CONTENT. */
    readonly captureContent: boolean,
  ) {}
}

abstract class Traced {
  constructor(
    protected readonly factory: SpanFactory,
    protected readonly secrets: RunSecrets,
    readonly span: Span,
  ) {}

  /** `text` masked, for an attribute. */
  protected masked(text: string): string {
    return this.secrets.mask.text(text);
  }

  protected content(key: string, value: unknown): void {
    if (!this.factory.captureContent || value === undefined) return;
    this.span.setAttribute(key, this.masked(typeof value === 'string' ? value : JSON.stringify(value)));
  }

  protected failWith(error: unknown): void {
    const { type, message } = errorOf(error);
    this.span.setAttribute('error.type', type);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: this.masked(message) });
  }

  // Spans are parented explicitly (no context manager): nothing is installed globally, nothing else in the process is traced.
  protected get context(): Context {
    return trace.setSpan(ROOT_CONTEXT, this.span);
  }
}

/** The root span of a run (`invoke_workflow SLUG`), or of a sub-flow an agent node runs (`invoke_agent SLUG`). */
export class RunTrace extends Traced {
  /** Masks what `owner` (one flow run, this one or a sub-run) revealed so far to its tools in every later attribute; a later mask of the same owner replaces its earlier one. */
  maskWith(owner: object, mask: TextMask): void {
    this.secrets.set(owner, mask);
  }

  /** The W3C `traceparent` of this run's span. */
  traceparent(): string {
    const { traceId, spanId, traceFlags } = this.span.spanContext();
    return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
  }

  /** Starts a node's span. */
  node(id: string, type: string): NodeTrace {
    const span = this.factory.tracer.startSpan(
      `node ${id}`,
      { kind: SpanKind.INTERNAL, attributes: { 'switchboard.node.id': id, 'switchboard.node.type': type } },
      this.context,
    );
    return new NodeTrace(this.factory, this.secrets, span);
  }

  /** Ends the run's span with its totals. */
  end(outcome: { ok: boolean; usage: Usage; cost?: Cost; error?: unknown; output?: unknown }): void {
    this.span.setAttributes({
      'gen_ai.usage.input_tokens': outcome.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': outcome.usage.completion_tokens,
      'switchboard.run.status': outcome.ok ? 'succeeded' : 'failed',
    });
    // A sub-flow's calls count on its run's cost (one meter), so only the run's own span carries one.
    if (outcome.cost) this.span.setAttributes({ 'switchboard.cost_usd': outcome.cost.usd, 'switchboard.cost_priced': outcome.cost.priced });
    if (outcome.ok) this.content('gen_ai.output.messages', [{ role: 'assistant', parts: [{ type: 'text', content: outcome.output }] }]);
    else this.failWith(outcome.error);
    this.span.end();
  }

  /** A run's root span. */
  static start(factory: SpanFactory, info: RunSpanInfo, parent: Context): RunTrace {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': info.slug,
      'switchboard.flow.slug': info.slug,
      'switchboard.flow.version': info.version,
      'switchboard.run.id': info.runId,
      'switchboard.org': info.orgCode,
      'switchboard.trigger': info.trigger,
    };
    if (info.schedule) attributes['switchboard.schedule'] = info.schedule;
    const span = factory.tracer.startSpan(`invoke_workflow ${info.slug}`, { kind: SpanKind.SERVER, attributes }, parent);
    const run = new RunTrace(factory, new RunSecrets(), span);
    run.content('switchboard.run.input', info.input);
    return run;
  }
}

/** A node's span; model and tool calls are its children, and so is a sub-flow's run. */
export class NodeTrace extends Traced {
  /** Starts a model call's span (`chat MODEL`). */
  modelCall(info: ModelCallInfo): ModelCallTrace {
    const provider = info.kind === 'openai-compatible' ? info.connection : info.kind;
    const attributes: Attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': info.model,
      'switchboard.provider.connection': info.connection,
    };
    if (info.temperature !== undefined) attributes['gen_ai.request.temperature'] = info.temperature;
    if (info.maxTokens !== undefined) attributes['gen_ai.request.max_tokens'] = info.maxTokens;
    if (info.stream !== undefined) attributes['gen_ai.request.stream'] = info.stream;
    const span = this.factory.tracer.startSpan(`chat ${info.model}`, { kind: SpanKind.CLIENT, attributes }, this.context);
    const call = new ModelCallTrace(this.factory, this.secrets, span, info.model);
    if (info.system) call.setContent('gen_ai.system_instructions', [{ type: 'text', content: info.system }]);
    if (info.messages)
      call.setContent(
        'gen_ai.input.messages',
        info.messages.map((m) => ({ role: m.role, parts: [{ type: 'text', content: m.content }] })),
      );
    return call;
  }

  /** Starts a tool call's span (`execute_tool NAME`). */
  toolCall(name: string, callId: string, args: unknown): ToolCallTrace {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.type': 'function',
    };
    const span = this.factory.tracer.startSpan(`execute_tool ${name}`, { kind: SpanKind.INTERNAL, attributes }, this.context);
    const call = new ToolCallTrace(this.factory, this.secrets, span);
    call.setContent('gen_ai.tool.call.arguments', args);
    return call;
  }

  /** The span of a sub-flow run by an agent node (`invoke_agent SLUG`), sharing the run's secrets. */
  subRun(slug: string, version: number): RunTrace {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': slug,
      'switchboard.flow.slug': slug,
      'switchboard.flow.version': version,
    };
    const span = this.factory.tracer.startSpan(`invoke_agent ${slug}`, { kind: SpanKind.INTERNAL, attributes }, this.context);
    return new RunTrace(this.factory, this.secrets, span);
  }

  /** Ends the node's span. */
  end(status: 'succeeded' | 'failed' | 'skipped', error?: unknown): void {
    this.span.setAttribute('switchboard.node.status', status);
    if (status === 'failed') this.failWith(error);
    this.span.end();
  }
}

/** A model call's span. */
export class ModelCallTrace extends Traced {
  constructor(
    factory: SpanFactory,
    secrets: RunSecrets,
    span: Span,
    private readonly model: string,
  ) {
    super(factory, secrets, span);
  }

  /** Sets a content attribute (captured only with FLOWS_OTEL_CAPTURE_CONTENT=true). */
  setContent(key: string, value: unknown): void {
    this.content(key, value);
  }

  /** Ends the span with the call's usage, finish reason and cost. */
  end(end: ModelCallEnd): void {
    this.span.setAttributes({
      'gen_ai.response.model': end.responseModel ?? this.model,
      'gen_ai.usage.input_tokens': end.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': end.usage.completion_tokens,
      'gen_ai.response.finish_reasons': [end.finishReason],
      'switchboard.cost_usd': end.cost.usd,
      'switchboard.cost_priced': end.cost.priced,
    });
    if (end.text !== undefined)
      this.content('gen_ai.output.messages', [{ role: 'assistant', parts: [{ type: 'text', content: end.text }], finish_reason: end.finishReason }]);
    this.span.end();
  }

  /** Ends the span as failed. */
  fail(error: unknown): void {
    this.failWith(error);
    this.span.end();
  }
}

/** A tool call's span. */
export class ToolCallTrace extends Traced {
  /** Sets a content attribute (captured only with FLOWS_OTEL_CAPTURE_CONTENT=true). */
  setContent(key: string, value: unknown): void {
    this.content(key, value);
  }

  /** Ends the span with the tool's result (or the error it gave the model). */
  end(outcome: { result?: unknown; error?: string }): void {
    if (outcome.error !== undefined) this.failWith(new Error(outcome.error));
    else this.content('gen_ai.tool.call.result', outcome.result);
    this.span.end();
  }
}

import type { FlowNode } from '../domain/flow-definition.ts';
import type { Scope } from '../domain/references.ts';
import type { CompiledFlow } from '../domain/compiled-flow.ts';
import type { Usage } from '../domain/usage.ts';
import type { OrgProviders } from './provider-registry.ts';
import type { RunServices } from './run-services.ts';
import type { NodeTrace } from '../tracing/run-trace.ts';

import type { ConversationMessage } from '../domain/run-request.ts';
import type { SentMessage } from '../domain/sent-messages.ts';

export type { ConversationMessage };

/** Events a run emits while it runs, for the streaming transports. */
export type RunEvent =
  | { type: 'node'; node: string; status: 'started' | 'finished'; ms?: number }
  | { type: 'delta'; content: string }
  | { type: 'tool_call'; node: string; tool: string; call_id: string; args: unknown }
  | { type: 'tool_result'; node: string; tool: string; call_id: string; result?: unknown; error?: string };

/** What a node handler gets to work with. */
export interface NodeContext {
  node: FlowNode;
  flow: CompiledFlow;
  scope: Scope;
  signal: AbortSignal;
  providers: OrgProviders;
  conversation: ConversationMessage[];
  /** Extra system text from the caller (system messages of a chat completion request). */
  callerSystem: string | undefined;
  /** True when the caller streams and this node's text is the reply: its tokens go out as deltas. */
  streamReply: boolean;
  emit(event: RunEvent): void;
  /** Retries of a failed provider call. */
  providerRetries: number;
  /** Knowledge, memory, tools and sub-flows. */
  services: RunServices;
  /** The node's OpenTelemetry span, when runs are traced: model and tool calls are its children. */
  trace: NodeTrace | undefined;
  /** Notes what one model call of this node is about to be sent (the trace shows it, secrets masked). */
  recordModelCall(messages: SentMessage[]): void;
}

/** What a node produced. */
export interface NodeResult {
  /** The node's output, referenced as `{{node.field}}`. */
  output: unknown;
  /** Tokens the node's model calls used. */
  usage?: Usage;
  /** For a switch: the chosen successor (null: none). */
  branch?: string | null;
  /** The reply text when this node feeds the output node. */
  text?: string;
  /** The model's finish reason (llm nodes). */
  finishReason?: string;
  /** Tool calls made (llm nodes with tools). */
  toolCalls?: unknown[];
  /** True when the node already streamed its text as deltas. */
  streamed?: boolean;
}

/** Runs one node type. Tool, agent and retrieval handlers plug in here. */
export type NodeHandler = (context: NodeContext) => Promise<NodeResult>;

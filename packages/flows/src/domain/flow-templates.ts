/**
 * The flows a newcomer starts from (design/flows.md, "Templates"). A
 * template's definition holds `{{bindings.NAME}}` where the user's choice
 * goes (see template-bindings.ts); `needs` says what to ask for. Pure data.
 */
import type { FlowDefinition } from './flow-definition.ts';

/** What a template asks the user for: a provider connection and model, a knowledge base, a URL, or a secret by name. */
export type TemplateNeed = 'provider' | 'knowledge_base' | 'url' | `secret:${string}`;

/** One template as GET …/templates lists it. */
export interface FlowTemplate {
  id: string;
  name: string;
  description: string;
  needs: TemplateNeed[];
  /** What each need is for in this template, as a form would explain it. */
  hints: Partial<Record<TemplateNeed, string>>;
  definition: FlowDefinition;
}

const PROVIDER = '{{bindings.provider}}';
const MODEL = '{{bindings.model}}';

/** The Input node every template starts with: one message, so each runs as a chat. */
const messageInput = {
  id: 'input',
  type: 'input' as const,
  position: { x: 0, y: 160 },
  data: { variables: [{ name: 'message', type: 'string', required: true, description: 'What the user says' }] },
};
const chatOutput = (x: number) => ({ id: 'output', type: 'output' as const, position: { x, y: 160 }, data: { format: 'chat_completion' } });

// Each template is a declaration: they repeat the same node shapes (llm, memory, output) with their own prompts and settings.
const chatAssistant: FlowTemplate = {
  id: 'chat-assistant',
  name: 'Chat assistant with memory',
  description: 'A helpful assistant that remembers the conversation of each session (its last 20 messages).',
  needs: ['provider'],
  hints: { provider: 'The model that answers.' },
  definition: {
    name: 'Chat assistant',
    description: 'Answers in a conversation, remembering each session',
    nodes: [
      messageInput,
      {
        id: 'assistant',
        type: 'llm',
        position: { x: 320, y: 160 },
        data: {
          provider: PROVIDER,
          model: MODEL,
          system: 'You are a helpful assistant. Answer clearly and briefly.',
          prompt: '{{input.message}}',
          temperature: 0.7,
          memory: { window: 20 },
        },
      },
      chatOutput(640),
    ],
    edges: [
      { from: 'input', to: 'assistant' },
      { from: 'assistant', to: 'output' },
    ],
  },
};

const supportAgent: FlowTemplate = {
  id: 'support-agent',
  name: 'Support agent over a knowledge base',
  description: 'Answers questions from the documents of a knowledge base, and says so when they do not cover the question.',
  needs: ['provider', 'knowledge_base'],
  hints: { provider: 'The model that writes the answer.', knowledge_base: 'The documents it answers from (add them under Knowledge).' },
  definition: {
    name: 'Support agent',
    description: 'Answers from the knowledge base',
    nodes: [
      messageInput,
      {
        id: 'docs',
        type: 'retrieval',
        position: { x: 320, y: 160 },
        data: { knowledge_base: '{{bindings.knowledge_base}}', query: '{{input.message}}', top_k: 4 },
      },
      {
        id: 'answer',
        type: 'llm',
        position: { x: 640, y: 160 },
        data: {
          provider: PROVIDER,
          model: MODEL,
          system:
            'You are a support agent. Answer only from these excerpts of the documentation; when they do not answer the question, say so and suggest contacting support.\n\n{{docs.text}}',
          prompt: '{{input.message}}',
          temperature: 0.2,
          memory: { window: 10 },
        },
      },
      chatOutput(960),
    ],
    edges: [
      { from: 'input', to: 'docs' },
      { from: 'docs', to: 'answer' },
      { from: 'answer', to: 'output' },
    ],
  },
};

const router: FlowTemplate = {
  id: 'router',
  name: 'Router with two specialists',
  description: 'A first model call sorts the message (billing or technical), then a switch hands it to the specialist for it.',
  needs: ['provider'],
  hints: { provider: 'The model of the sorter and of both specialists.' },
  definition: {
    name: 'Support router',
    description: 'Sends billing questions to one specialist and the rest to another',
    nodes: [
      messageInput,
      {
        id: 'classify',
        type: 'llm',
        position: { x: 320, y: 160 },
        data: {
          provider: PROVIDER,
          model: MODEL,
          system: 'Sort the customer message. Answer with one word: billing (payments, invoices, refunds, plans) or technical (anything else).',
          prompt: '{{input.message}}',
          temperature: 0,
          max_tokens: 5,
        },
      },
      {
        id: 'route',
        type: 'switch',
        position: { x: 640, y: 160 },
        data: { cases: [{ if: { left: '{{classify.text}}', op: 'matches', right: '[Bb]illing|BILLING' }, then: 'billing' }], else: 'technical' },
      },
      {
        id: 'billing',
        type: 'llm',
        position: { x: 960, y: 40 },
        data: {
          provider: PROVIDER,
          model: MODEL,
          system: 'You are a billing specialist: payments, invoices, refunds and plans. Be precise and kind.',
          prompt: '{{input.message}}',
        },
      },
      {
        id: 'technical',
        type: 'llm',
        position: { x: 960, y: 280 },
        data: {
          provider: PROVIDER,
          model: MODEL,
          system: 'You are a technical support engineer. Ask for what you need to know, then give clear steps.',
          prompt: '{{input.message}}',
        },
      },
      chatOutput(1280),
    ],
    edges: [
      { from: 'input', to: 'classify' },
      { from: 'classify', to: 'route' },
      { from: 'route', to: 'billing' },
      { from: 'route', to: 'technical' },
      { from: 'billing', to: 'output' },
      { from: 'technical', to: 'output' },
    ],
  },
};

const httpToolAgent: FlowTemplate = {
  id: 'http-tool-agent',
  name: 'Agent with an HTTP tool',
  description: 'An assistant that calls your API when it needs data: it POSTs {"query": …} as JSON to the URL you give and reads the answer.',
  needs: ['provider', 'url'],
  hints: { provider: 'The model that decides when to call the API.', url: 'The address the tool POSTs to, e.g. https://api.example.com/search.' },
  definition: {
    name: 'API agent',
    description: 'Answers with data from an HTTP API',
    nodes: [
      messageInput,
      {
        id: 'api',
        type: 'tool',
        position: { x: 320, y: 20 },
        data: {
          kind: 'http',
          name: 'call_api',
          description: 'Asks the API for data. Use it whenever the question needs facts you do not have.',
          parameters: { type: 'object', properties: { query: { type: 'string', description: 'What to look up' } }, required: ['query'] },
          request: { method: 'POST', url: '{{bindings.url}}' },
        },
      },
      {
        id: 'agent',
        type: 'llm',
        position: { x: 640, y: 160 },
        data: {
          provider: PROVIDER,
          model: MODEL,
          system: 'Answer the question. Call call_api when you need data, and say what it answered; never invent data.',
          prompt: '{{input.message}}',
          max_steps: 5,
        },
      },
      chatOutput(960),
    ],
    edges: [
      { from: 'input', to: 'agent' },
      { from: 'api', to: 'agent' },
      { from: 'agent', to: 'output' },
    ],
  },
};

const ticketBoardAgent: FlowTemplate = {
  id: 'ticket-board-agent',
  name: 'Ticket board agent (MCP)',
  description: "An agent that works the team's ticket board through its MCP server: finds, creates, moves and comments on tickets.",
  needs: ['provider', 'url', 'secret:TICKETS_TOKEN'],
  hints: {
    provider: 'The model that works the board.',
    url: "The ticket board's MCP address, e.g. http://127.0.0.1:8103/mcp.",
    'secret:TICKETS_TOKEN': "A ticket board token (Settings → MCP Connection on the board), stored as the organization's secret TICKETS_TOKEN.",
  },
  definition: {
    name: 'Ticket board agent',
    description: 'Works the ticket board over MCP',
    nodes: [
      messageInput,
      {
        id: 'board',
        type: 'tool',
        position: { x: 320, y: 20 },
        data: { kind: 'mcp', url: '{{bindings.url}}', headers: { Authorization: 'Bearer {{secrets.TICKETS_TOKEN}}' } },
      },
      {
        id: 'agent',
        type: 'llm',
        position: { x: 640, y: 160 },
        data: {
          provider: PROVIDER,
          model: MODEL,
          system:
            "You work the team's ticket board with its tools: find tickets, create them, move them between columns and comment. Say what you changed, with the ticket keys.",
          prompt: '{{input.message}}',
          max_steps: 8,
          memory: { window: 20 },
        },
      },
      chatOutput(960),
    ],
    edges: [
      { from: 'input', to: 'agent' },
      { from: 'board', to: 'agent' },
      { from: 'agent', to: 'output' },
    ],
  },
};

/** Every template, in the order New flow offers them (after Blank). */
export const FLOW_TEMPLATES: readonly FlowTemplate[] = [chatAssistant, supportAgent, router, httpToolAgent, ticketBoardAgent];

/** The template with this id, if any. */
export function findTemplate(id: string): FlowTemplate | undefined {
  return FLOW_TEMPLATES.find((t) => t.id === id);
}

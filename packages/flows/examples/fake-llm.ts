/**
 * A tiny stand-in for a real model, so the README example runs without one:
 * an OpenAI-compatible server (POST /v1/chat/completions, streaming or not,
 * with tool calls) plus a fake shop API (GET /shop/orders/:id) for the
 * example's http tool.
 *
 *   npx tsx packages/flows/examples/fake-llm.ts            # port 8199 (FAKE_LLM_PORT)
 *
 * What it "thinks": an order id (ORD-123) in the question → it calls
 * lookup_order; "ticket: TITLE" → create_ticket; "list tickets" → list_tickets;
 * after a tool result → it reports that result; otherwise it quotes the
 * handbook sentence of the system prompt that shares most words with the
 * question, and says how many earlier messages (memory) it was given.
 */
import { createServer, type ServerResponse } from 'node:http';

type Message = { role: string; content: unknown; tool_calls?: unknown[] };
type Tool = { function: { name: string } };

const port = Number(process.env.FAKE_LLM_PORT ?? 8199);
const ORDERS: Record<string, unknown> = {
  'ORD-1234': { order_id: 'ORD-1234', status: 'shipped', carrier: 'DHL', tracking: 'JD014600003SE', eta: '2 business days' },
  'ORD-5678': { order_id: 'ORD-5678', status: 'packed', carrier: null, tracking: null, eta: 'ships tomorrow' },
};

const text = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? '').join('') : '';
const words = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

function think(messages: Message[], tools: Tool[]): { content?: string; call?: { name: string; args: Record<string, unknown> } } {
  const last = messages.at(-1)!;
  const offered = new Set(tools.map((t) => t.function.name));
  if (last.role === 'tool') return { content: `Here is what I found: ${text(last.content)}` };
  const question = text(last.content);
  const order = /ORD-\d+/i.exec(question)?.[0].toUpperCase();
  if (order && offered.has('lookup_order')) return { call: { name: 'lookup_order', args: { order_id: order } } };
  const ticket = /^ticket:\s*(.+)$/i.exec(question)?.[1];
  if (ticket && offered.has('create_ticket')) return { call: { name: 'create_ticket', args: { title: ticket } } };
  if (/list tickets/i.test(question) && offered.has('list_tickets')) return { call: { name: 'list_tickets', args: {} } };
  const system = text(messages.find((m) => m.role === 'system')?.content);
  const asked = words(question);
  const sentences = system.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== '' && !s.startsWith('#'));
  const best = sentences.map((s) => ({ s, score: [...words(s)].filter((w) => asked.has(w)).length })).sort((a, b) => b.score - a.score)[0];
  const earlier = messages.filter((m) => m.role === 'user' || m.role === 'assistant').length - 1;
  const memory = earlier > 0 ? ` (I remember ${earlier} earlier message${earlier === 1 ? '' : 's'} of this conversation.)` : '';
  return { content: best && best.score > 0 ? `From the handbook: ${best.s.trim()}${memory}` : `I could not find that in the handbook.${memory}` };
}

function answer(res: ServerResponse, body: { model: string; stream?: boolean; messages: Message[]; tools?: Tool[] }): void {
  const { content, call } = think(body.messages, body.tools ?? []);
  const usage = { prompt_tokens: JSON.stringify(body.messages).length >> 2, completion_tokens: (content ?? '').split(' ').length, total_tokens: 0 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const toolCalls = call ? [{ id: `call_${Date.now()}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] : undefined;
  const finish = call ? 'tool_calls' : 'stop';
  const base = { id: 'chatcmpl-fake', created: Math.floor(Date.now() / 1000), model: body.model };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: content ?? null, tool_calls: toolCalls }, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (delta: unknown, finishReason: string | null) =>
    res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);
  send({ role: 'assistant', content: '' }, null);
  if (toolCalls) send({ tool_calls: toolCalls.map((c, index) => ({ index, ...c })) }, null);
  for (const token of content?.match(/\S+\s*/g) ?? []) send({ content: token }, null);
  send({}, finish);
  res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const order = /^\/shop\/orders\/([^/?]+)/.exec(req.url ?? '');
  if (req.method === 'GET' && order) {
    const found = ORDERS[decodeURIComponent(order[1]).toUpperCase()];
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(found ?? { error: `no order ${order[1]}` }));
  } else if (req.method === 'POST' && req.url?.endsWith('/chat/completions')) {
    answer(res, JSON.parse(Buffer.concat(chunks).toString('utf8')));
  } else if (req.method === 'GET' && req.url?.endsWith('/models')) {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data: [{ id: 'support', object: 'model', created: 0, owned_by: 'fake' }] }));
  } else {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
  }
}).listen(port, '127.0.0.1', () => console.log(`fake model and shop listening on http://127.0.0.1:${port} (OpenAI base URL http://127.0.0.1:${port}/v1)`));

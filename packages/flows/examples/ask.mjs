// Calls a flow with the official openai client: node packages/flows/examples/ask.mjs "Where is my order ORD-1234?"
// Needs SWITCHBOARD_TOKEN; FLOWS_URL defaults to http://127.0.0.1:8102, ORG to demo, FLOW to support-agent.
import OpenAI from 'openai';

const base = process.env.FLOWS_URL ?? 'http://127.0.0.1:8102';
const client = new OpenAI({
  baseURL: `${base}/api/llm/${process.env.ORG ?? 'demo'}/flows/${process.env.FLOW ?? 'support-agent'}`,
  apiKey: process.env.SWITCHBOARD_TOKEN,
});
const question = process.argv[2] ?? 'How do I reset my password?';

const completion = await client.chat.completions.create({ model: 'service-flow', messages: [{ role: 'user', content: question }] });
console.log(completion.choices[0].message.content);

// Streaming, with a session so the flow's memory keeps the conversation (metadata rides along in the body).
const stream = await client.chat.completions.create({
  model: 'service-flow',
  messages: [{ role: 'user', content: question }],
  stream: true,
  metadata: { session_id: 'openai-demo' },
});
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
process.stdout.write('\n');

// A minimal OpenAI-compatible upstream for the overhead benchmark, run as its own process.
// Prints its base URL on stdout. Streaming answers send the first token 20 ms after the request.
import { createServer } from 'node:http';

const completion = JSON.stringify({
  id: 'chatcmpl-x',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there, friend.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 },
});
const chunk = (delta, finish) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })}\n\n`;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    setTimeout(() => {
      // The first token carries the monotonic time it left at (shared by processes on one machine).
      res.write(chunk({ role: 'assistant', content: `@${process.hrtime.bigint()}` }, null));
      setTimeout(() => {
        res.write(chunk({ content: ' there' }, null));
        res.write(chunk({}, 'stop'));
        res.end(`${usage}data: [DONE]\n\n`);
      }, 5);
    }, 20);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/v1\n`));

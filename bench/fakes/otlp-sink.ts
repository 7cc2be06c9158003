// A local OTLP/HTTP trace receiver for the benchmarks, run as its own process so that taking the spans
// does not count against the service: POST /v1/traces → 200 (either encoding, the body read and dropped);
// GET /stats → {"requests", "bytes"}.
import { createServer } from 'node:http';

let requests = 0;
let bytes = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats')
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests, bytes }));
  let size = 0;
  req.on('data', (chunk: Buffer) => (size += chunk.length));
  req.on('end', () => {
    requests += 1;
    bytes += size;
    const json = String(req.headers['content-type']).includes('json');
    res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : '');
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`OTLP sink listening on http://127.0.0.1:${port}\n`);
});

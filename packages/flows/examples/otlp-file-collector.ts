// A minimal OTLP/HTTP trace collector that writes what it receives as the OpenTelemetry Collector's file
// exporter does: one ExportTraceServiceRequest per line, in OTLP JSON. For a look at the spans a run sends
// when neither Jaeger nor Langfuse is at hand (neither has a Debian or npm package to start it from).
//
//   npx tsx packages/flows/examples/otlp-file-collector.ts traces.jsonl [port=4318]
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 OTEL_EXPORTER_OTLP_PROTOCOL=http/json npm run start:flows
//
// It takes OTLP JSON only (set OTEL_EXPORTER_OTLP_PROTOCOL=http/json); protobuf is answered 415.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const file = process.argv[2] ?? 'traces.jsonl';
const port = Number(process.argv[3] ?? 4318);

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
  if (!String(req.headers['content-type']).includes('json'))
    return void res.writeHead(415, { 'content-type': 'text/plain' }).end('OTLP JSON only: OTEL_EXPORTER_OTLP_PROTOCOL=http/json');
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      appendFileSync(file, `${JSON.stringify(JSON.parse(body))}\n`);
    } catch {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('not JSON');
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`OTLP/HTTP collector on http://127.0.0.1:${port}, writing ${file}\n`));

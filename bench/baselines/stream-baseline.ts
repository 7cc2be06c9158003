// The floor under the flows open-streams rows: a node:http server that answers each POST with an SSE stream fed
// by one HTTP/2 call to the upstream (over TLS, all calls on one session, as flows' pool shares a session while
// the server allows the streams), passing the upstream's bytes through unparsed. No token, flow, run record or
// event of its own: what the raw stack costs per open stream on this machine, to read the service's figures by.
// BASELINE_UPSTREAM is the upstream's https origin (trusted through NODE_EXTRA_CA_CERTS), BASELINE_UPSTREAM_BODY
// the JSON body each call sends.
import { createServer } from 'node:http';
import { connect, type ClientHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';

const origin = process.env.BASELINE_UPSTREAM!;
const upstreamBody = process.env.BASELINE_UPSTREAM_BODY!;
let session: ClientHttp2Session | undefined;

function upstream(): ClientHttp2Session {
  if (!session || session.closed || session.destroyed) {
    const opened = connect(origin);
    opened.on('error', () => undefined);
    opened.on('close', () => {
      if (session === opened) session = undefined;
    });
    session = opened;
  }
  return session;
}

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const call = upstream().request({ ':method': 'POST', ':path': '/v1/chat/completions', 'content-type': 'application/json', authorization: 'Bearer none' });
    call.on('response', (headers) => {
      if (!res.headersSent) res.writeHead(headers[':status'] === 200 ? 200 : 502, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    });
    call.on('data', (chunk: Buffer) => res.write(chunk));
    call.on('end', () => res.end());
    call.on('error', () => res.destroy());
    res.on('close', () => call.close());
    call.end(upstreamBody);
  });
});
// As the services: no timeout on a held stream, and a listen backlog as deep as the kernel allows.
server.headersTimeout = 0;
server.requestTimeout = 0;
server.listen({ port: 0, host: '127.0.0.1', backlog: 65_535 }, () => {
  process.stdout.write(`Stream baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  session?.destroy();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

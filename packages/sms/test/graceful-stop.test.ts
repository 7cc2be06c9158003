import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { stopGracefully } from '@switchboard/core';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { bearer, eventually, startService } from './helpers.ts';

/** A gateway that holds every answer until release(); it records the body of each message it was asked to send. */
async function startHoldingGateway() {
  const bodies: string[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', async () => {
      bodies.push(JSON.parse(raw).body);
      await released;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/gateway`,
    bodies,
    release,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(dialectsUnderTest())('the outbox worker during a graceful stop on %s', (dialect) => {
  it('finishes the message it is sending, claims no other, and /health answers 503 stopping meanwhile', async () => {
    const service = await startService(dialect, { LOG_LEVEL: 'silent' });
    const gateway = await startHoldingGateway();
    try {
      await service.context.orgs.setGateway('acme', 'webhook', { url: gateway.url }, new Date());
      // An instance with its worker on (the service's own app has it off).
      const app = await service.rebuild({ SMS_WORKER_INTERVAL_MS: '20' });
      const first = await app.inject({
        method: 'POST',
        url: '/send/acme',
        headers: bearer(service.key),
        payload: { to: '+15551234567', body: 'in flight at the stop' },
      });
      expect(first.statusCode).toBe(200);
      await eventually(async () => gateway.bodies.length === 1);

      const stopping = stopGracefully(app, 10_000);
      const health = await app.inject({ method: 'GET', url: '/health' });
      expect({ status: health.statusCode, body: health.json() }).toEqual({ status: 503, body: { status: 'stopping', version: '1.0', database: 'ok' } });
      // Queued after the stop began: several worker intervals pass, and nobody claims it.
      const { message: second } = await service.context.outbox.enqueue(
        'acme',
        { to: '+15551234567', body: 'queued after the stop', sim: null },
        { idempotencyKey: undefined, from: '', gateway: 'webhook', now: new Date() },
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(gateway.bodies).toEqual(['in flight at the stop']);

      gateway.release();
      expect((await stopping).cutShort).toBe(0);
      const statuses = [await service.context.messages.get('acme', first.json().id), await service.context.messages.get('acme', second.id)].map(
        (m) => m!.status,
      );
      expect(statuses).toEqual(['sent', 'queued']);
      expect(gateway.bodies).toEqual(['in flight at the stop']);
    } finally {
      gateway.release();
      await gateway.close();
      await service.close();
    }
  });
});

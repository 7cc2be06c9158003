import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { smsContext } from '../src/index.ts';
import { startService, type TestService } from './helpers.ts';

describe.each(dialectsUnderTest())('pages and operations on %s', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(dialect);
  });
  afterAll(() => service.close());

  it('serves the HTML page with the endpoints and a self-contained inbox', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    for (const text of ['/messages/{org_id}/{secret_key}', '/sims/{org_id}/{secret_key}', '/send/{org_id}', '/webhook', '/health', 'since_id', 'curl ']) {
      expect(html).toContain(text);
    }
    // The inbox: credentials, polling with since_id, direction and SIM filters, sending.
    for (const id of ['id="org"', 'id="key"', 'id="direction"', 'id="sim"', 'id="send"', 'next_since_id', "'/send/'"]) expect(html).toContain(id);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href="https?:/);
  });

  it('serves its own icon, an SVG the page links (and /favicon.ico leads to it)', async () => {
    const html = (await service.app.inject({ method: 'GET', url: '/' })).body;
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    const icon = await service.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('public, max-age=86400');
    expect(icon.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="32" height="32" viewBox="0 0 32 32">[\s\S]*<\/svg>$/);
    expect(icon.body).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const legacy = await service.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(legacy.statusCode).toBe(301);
    expect(legacy.headers.location).toBe('/favicon.svg');
  });

  it('serves /llms.txt with a title, a summary and every endpoint with an example', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/llms.txt', headers: { host: 'sms.test:8101' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const text = response.body;
    expect(text.startsWith('# Switchboard SMS message store\n\n> ')).toBe(true);
    for (const endpoint of [
      'GET /messages/{org_id}/{secret_key}',
      'GET /messages/{org_id}',
      'GET /sims/{org_id}/{secret_key}',
      'POST /send/{org_id}',
      'POST /webhook',
      'GET /health',
    ]) {
      expect(text).toContain(endpoint);
    }
    for (const parameter of ['limit', 'since_id', 'direction', 'sim', 'Idempotency-Key', 'X-Secret-Key', '?key=']) expect(text).toContain(parameter);
    expect(text).toContain("curl 'http://sms.test:8101/messages/ORG_ID/SECRET_KEY");
  });

  it('serves /openapi.json version 1.0 with every endpoint, and /docs', async () => {
    const spec = (await service.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(spec.info.version).toBe('1.0');
    expect(Object.keys(spec.paths).sort()).toEqual(
      [
        '/',
        '/health',
        '/llms.txt',
        '/messages/{org_id}',
        '/messages/{org_id}/{secret_key}',
        '/send/{org_id}',
        '/sims/{org_id}/{secret_key}',
        '/webhook',
        '/api/session',
        // People and accounts, and the tenants (core's admin API, web.md "Administration").
        '/api/account',
        '/api/account/password',
        '/api/admin/users',
        '/api/admin/users/{id}',
        '/api/admin/users/{id}/invitation',
        '/api/invitations/{token}',
        '/api/orgs',
        '/api/orgs/{org_id}/members',
        '/api/orgs/{org_id}/members/{user_id}',
        '/api/orgs/{org_id}/conversations',
        '/api/orgs/{org_id}/conversations/{peer}/messages',
        '/api/orgs/{org_id}/conversations/{peer}/read',
        '/api/orgs/{org_id}/events',
        '/api/orgs/{org_id}/gateway',
        '/api/orgs/{org_id}/gateway/test',
        '/api/orgs/{org_id}/keys',
        '/api/orgs/{org_id}/keys/{key_id}',
        '/api/orgs/{org_id}/sims',
        '/api/orgs/{org_id}/sims/{sim}',
      ].sort(),
    );
    const listing = spec.paths['/messages/{org_id}/{secret_key}'].get;
    expect(listing.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['org_id', 'secret_key', 'limit', 'since_id', 'direction', 'sim']),
    );
    expect(Object.keys(listing.responses)).toEqual(expect.arrayContaining(['200', '422']));
    const docs = await service.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it('exposes Prometheus metrics with the outbox depth', async () => {
    await service.app.inject({ method: 'POST', url: '/send/acme', headers: { 'x-secret-key': service.key }, payload: { to: '+15551234567', body: 'x' } });
    const metrics = (await service.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('# TYPE sms_outbox_depth gauge');
    expect(metrics).toMatch(/^sms_outbox_depth 1$/m);
    expect(metrics).toContain('http_requests_total{method="POST",route="/send/:org_id",status="200"}');
  });

  it('answers 404 for an unknown route', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });

  it('reports health, and 503 when the database does not answer', async () => {
    const healthy = await service.app.inject({ method: 'GET', url: '/health' });
    expect(healthy.statusCode).toBe(200);
    expect(healthy.json()).toEqual({ status: 'ok', version: '1.0', database: 'ok' });

    const second = await service.rebuild();
    await smsContext(second).database.close();
    const broken = await second.inject({ method: 'GET', url: '/health' });
    expect(broken.statusCode).toBe(503);
    expect(broken.json()).toEqual({ status: 'unavailable', version: '1.0', database: 'unavailable' });
  });
});

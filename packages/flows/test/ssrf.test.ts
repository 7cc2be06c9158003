import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { parseAllowedHosts as parsePolicy, readLimited, refusalOf, safeRequest } from '@switchboard/core';
import { startAgentHarness, toolFlow, type AgentHarness } from './helpers/agent-harness.ts';

/** FLOWS_ALLOWED_HOSTS as the flows service parses it. */
const parseAllowedHosts = (value: string) => parsePolicy(value, 'FLOWS_ALLOWED_HOSTS');

const none = parseAllowedHosts('');

describe('address policy', () => {
  it('refuses loopback, private, link-local and unique-local addresses, also IPv4-mapped', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(refusalOf(none, address), address).toMatch(/is private, loopback or link-local/);
    }
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1']) expect(refusalOf(none, address), address).toBeUndefined();
  });

  it('allows what FLOWS_ALLOWED_HOSTS lists: addresses, CIDRs, host names, or everything with *', () => {
    const policy = parseAllowedHosts('127.0.0.2, 10.0.0.0/8 ,tools.internal,fd00::/8');
    expect(refusalOf(policy, '127.0.0.2')).toBeUndefined();
    expect(refusalOf(policy, '127.0.0.1')).toMatch(/loopback/);
    expect(refusalOf(policy, '10.200.3.4')).toBeUndefined();
    expect(refusalOf(policy, 'fd12::1')).toBeUndefined();
    expect(refusalOf(policy, '192.168.0.1')).toMatch(/private/);
    expect(policy.hosts.has('tools.internal')).toBe(true);
    expect(refusalOf(parseAllowedHosts('*'), '127.0.0.1')).toBeUndefined();
  });

  it('rejects malformed allow-list entries', () => {
    expect(() => parseAllowedHosts('10.0.0.0/40')).toThrow('"10.0.0.0/40" has an invalid prefix length');
    expect(() => parseAllowedHosts('bad host')).toThrow('"bad host" is neither a host name, an IP address nor a CIDR');
  });
});

describe('checked outbound requests', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url?.startsWith('/redirect')) res.writeHead(302, { location: new URL(req.url, 'http://x').searchParams.get('to')! }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
    });
    // 127.0.0.2 is allowed in these tests; 127.0.0.1 (the same server) is not.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (url: string, allowed = '127.0.0.2') => safeRequest(url, { method: 'GET', headers: {} }, parseAllowedHosts(allowed));

  it('refuses loopback, 10.x, 169.254.x and ::1 before connecting', async () => {
    const before = hits;
    await expect(get(`http://127.0.0.1:${port}/`)).rejects.toThrow(`Refused to connect to 127.0.0.1: the address 127.0.0.1 is private, loopback or link-local`);
    await expect(get('http://10.0.0.1/')).rejects.toThrow('Refused to connect to 10.0.0.1');
    await expect(get('http://169.254.169.254/latest/meta-data/')).rejects.toThrow('Refused to connect to 169.254.169.254');
    await expect(get(`http://[::1]:${port}/`)).rejects.toThrow('Refused to connect to ::1');
    await expect(get('ftp://example.com/')).rejects.toThrow('only http and https URLs are allowed');
    expect(hits).toBe(before);
  });

  it('refuses a DNS name that resolves to loopback (localhost)', async () => {
    await expect(get(`http://localhost:${port}/`)).rejects.toThrow(/Refused to connect to localhost: the address (127\.0\.0\.1|::1) is private/);
  });

  it('reaches an allowed address, and refuses a redirect from it to loopback', async () => {
    const { response } = await get(`http://127.0.0.2:${port}/`);
    expect((await readLimited(response, 100)).toString()).toBe('reached');
    await expect(get(`http://127.0.0.2:${port}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${port}/`)}`)).rejects.toThrow(
      'Refused to connect to 127.0.0.1',
    );
    const followed = await get(`http://127.0.0.2:${port}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${port}/ok`)}`);
    expect(followed.url.pathname).toBe('/ok');
  });

  it('reaches loopback when allowed by CIDR, by host name, or by *', async () => {
    const local = createServer((_req, res) => res.end('local'));
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const localPort = (local.address() as { port: number }).port;
    try {
      for (const [url, allowed] of [
        [`http://127.0.0.1:${localPort}/`, '127.0.0.0/8'],
        [`http://localhost:${localPort}/`, 'localhost'],
        [`http://localhost:${localPort}/`, '*'],
      ]) {
        const { response } = await get(url, allowed);
        expect((await readLimited(response, 100)).toString(), allowed).toBe('local');
      }
    } finally {
      local.closeAllConnections();
      await new Promise((resolve) => local.close(resolve));
    }
  });
});

describe.each(dialectsUnderTest())('refused tool addresses in runs on %s', (dialect) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(dialect);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('accepts blocked addresses on save and refuses them at run, as tool errors the model reads', async () => {
    const port = new URL(h.api.base).port;
    const targets: Record<string, string> = {
      loopback: `http://127.0.0.1:${port}/weather/x`,
      private: 'http://10.0.0.1/weather/x',
      link_local: 'http://169.254.169.254/latest/meta-data/',
      ipv6: `http://[::1]:${port}/weather/x`,
      localhost: `http://localhost:${port}/weather/x`,
      redirect: `${h.api.base}/redirect?to=http%3A%2F%2F127.0.0.1%3A${port}%2Fweather%2Fx`,
    };
    h.model.plans.set('blocked', [Object.keys(targets).map((name) => ({ name, args: {} }))]);
    const response = await h.post(
      '/api/llm/acme/flows',
      toolFlow(
        'blocked',
        'plan:blocked',
        Object.entries(targets).map(([name, url]) => ({ id: name, data: { kind: 'http', name, request: { url } } })),
      ),
    );
    expect(response.status, await response.clone().text()).toBe(201);
    const events = await h.streamLines('blocked', { input: { question: 'try' } });
    const errors = Object.fromEntries(events.filter((e) => e.type === 'tool_result').map((e) => [e.tool, e.error]));
    expect(errors).toEqual({
      loopback: 'Refused to connect to 127.0.0.1: the address 127.0.0.1 is private, loopback or link-local (allow it with FLOWS_ALLOWED_HOSTS)',
      private: 'Refused to connect to 10.0.0.1: the address 10.0.0.1 is private, loopback or link-local (allow it with FLOWS_ALLOWED_HOSTS)',
      link_local: 'Refused to connect to 169.254.169.254: the address 169.254.169.254 is private, loopback or link-local (allow it with FLOWS_ALLOWED_HOSTS)',
      ipv6: 'Refused to connect to ::1: the address ::1 is private, loopback or link-local (allow it with FLOWS_ALLOWED_HOSTS)',
      localhost: expect.stringMatching(/^Refused to connect to localhost: the address (127\.0\.0\.1|::1) is private/),
      redirect: 'Refused to connect to 127.0.0.1: the address 127.0.0.1 is private, loopback or link-local (allow it with FLOWS_ALLOWED_HOSTS)',
    });
    expect(events.at(-1)!.type).toBe('done');
    expect(h.api.requests.filter((r) => r.url.startsWith('/weather'))).toHaveLength(0);
  });
});

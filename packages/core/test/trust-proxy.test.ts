import { describe, expect, it } from 'vitest';
import { ConfigError, createHttpServer, createLogger, envTrustProxy } from '../src/index.ts';

describe('TRUST_PROXY', () => {
  it('reads false (unset), true, a hop count, or addresses and CIDRs, and names the variable of anything else', () => {
    expect(envTrustProxy({}, 'TRUST_PROXY')).toBe(false);
    expect(envTrustProxy({ TRUST_PROXY: 'false' }, 'TRUST_PROXY')).toBe(false);
    expect(envTrustProxy({ TRUST_PROXY: 'true' }, 'TRUST_PROXY')).toBe(true);
    expect(envTrustProxy({ TRUST_PROXY: '2' }, 'TRUST_PROXY')).toBe(2);
    expect(envTrustProxy({ TRUST_PROXY: '10.0.0.5, 10.0.1.0/24,::1' }, 'TRUST_PROXY')).toBe('10.0.0.5,10.0.1.0/24,::1');
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.1/8/1', 'yes']) {
      expect(() => envTrustProxy({ TRUST_PROXY: bad }, 'TRUST_PROXY')).toThrow(
        new ConfigError('TRUST_PROXY', `must be true, false, a number of proxy hops, or IP addresses and CIDRs separated by commas, got "${bad}"`),
      );
    }
  });

  it('believes X-Forwarded-For, -Proto and -Host from a trusted proxy only', async () => {
    const logger = createLogger({ service: 'sms', level: 'silent' });
    for (const [trustProxy, expected] of [
      ['127.0.0.1', { ip: '198.51.100.7', protocol: 'https', host: 'sms.example.com' }],
      ['10.9.9.9', { ip: '127.0.0.1', protocol: 'http', host: 'localhost:80' }],
      [false, { ip: '127.0.0.1', protocol: 'http', host: 'localhost:80' }],
    ] as const) {
      const app = createHttpServer({ logger, bodyLimit: 1024, trustProxy });
      app.get('/who', async (request) => ({ ip: request.ip, protocol: request.protocol, host: request.host }));
      const response = await app.inject({
        method: 'GET',
        url: '/who',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sms.example.com' },
      });
      expect(response.json()).toEqual(expected);
      await app.close();
    }
  });
});

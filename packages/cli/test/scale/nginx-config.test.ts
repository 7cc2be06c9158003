import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_TOPOLOGY, renderNginxConfig } from '../../src/deploy/nginx-config.ts';
import { ROOT } from '../helpers.ts';
import { NGINX, checkNginxConfig } from './nginx.ts';

describe('the documented nginx configuration', () => {
  it('is deploy/nginx.conf, rendered by the same function the scale-out tests run nginx with', () => {
    expect(readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8')).toBe(renderNginxConfig(EXAMPLE_TOPOLOGY));
  });

  it.skipIf(!NGINX)('passes nginx -t', () => {
    expect(checkNginxConfig(readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8'))).toBeUndefined();
  });
});

describe('docs/deploy.md', () => {
  it('shows deploy/nginx.conf exactly, so the guide, the file and the tests never differ', () => {
    const guide = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
    const block = /```nginx\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(block).toBe(readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8'));
  });
});

import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** GET, HEAD and OPTIONS: the methods that change nothing and so need no Origin check. */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

function originOfUrl(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    // Opaque origins ("null": sandboxed frames, file: pages) match nothing.
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The origins a cookie-authenticated write may come from: the service's own (as the request reached it) and PUBLIC_BASE_URL's. */
export function allowedOrigins(request: FastifyRequest, publicBaseUrl: string | undefined): string[] {
  const origins = [originOfUrl(`${request.protocol}://${request.host}`)];
  if (publicBaseUrl) origins.push(originOfUrl(publicBaseUrl));
  return origins.filter((origin): origin is string => origin !== undefined);
}

/** The origin a request says it comes from: its `Origin` header, else the origin of its `Referer`; undefined without either. */
export function claimedOrigin(request: FastifyRequest): { header: 'Origin' | 'Referer'; value: string } | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return { header: 'Origin', value: origin };
  const referer = request.headers.referer;
  if (typeof referer === 'string' && referer !== '') return { header: 'Referer', value: referer };
  return undefined;
}

/**
 * The CSRF check of a cookie-authenticated request that changes state: its
 * Origin (or, without one, Referer) must be the service's own origin or
 * PUBLIC_BASE_URL's; otherwise 403 (`forbidden`). Bearer-token requests are
 * never checked: a browser does not add that header on its own.
 */
export function requireSameOrigin(request: FastifyRequest, publicBaseUrl: string | undefined): void {
  const claimed = claimedOrigin(request);
  if (!claimed) {
    throw new AppError(
      'forbidden',
      'Origin did not match: a signed-in request that changes something must carry an Origin (or Referer) header of this service',
    );
  }
  const origin = originOfUrl(claimed.value);
  if (origin === undefined || !allowedOrigins(request, publicBaseUrl).includes(origin)) {
    const shown = JSON.stringify((origin ?? claimed.value).slice(0, 200));
    throw new AppError('forbidden', `Origin did not match: ${claimed.header} ${shown} is not this service's origin`);
  }
}

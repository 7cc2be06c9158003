import { baseUrlOf, type App, type WebUi } from '@switchboard/core';
import { z } from 'zod';
import type { SmsContext } from './context.ts';
import { FAVICON_PATH, FAVICON_SVG } from './favicon.ts';
import { homePage } from './home-page.ts';
import { llmsText } from './llms-text.ts';
import { healthSchema } from './schema.ts';

/**
 * GET /, its icon, /llms.txt and /health. `/` is the public page for a visitor and the console (`consoleUi`'s
 * page) for a signed-in user.
 */
export function registerPageRoutes(app: App, context: SmsContext, consoleUi: WebUi): void {
  app.get(
    '/',
    { schema: { summary: 'HTML page: the service, its endpoints and a small inbox (the console for a signed-in user)', response: { 200: z.string() } } },
    async (request, reply) => {
      // The same URL answers two pages, chosen by the session cookie: no cache may give one for the other.
      reply.header('vary', 'Cookie');
      if (context.web.hasSessionCookie(request) && (await context.web.userOf(request))) {
        await consoleUi.page(request, reply);
        return reply;
      }
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      return homePage(baseUrlOf(request, context.config.publicBaseUrl));
    },
  );
  // The page's icon, not part of the API (so not in /openapi.json); /favicon.ico, which browsers ask for on
  // pages that name no icon, leads to it.
  app.get(FAVICON_PATH, { schema: { hide: true } }, async (_request, reply) => {
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG);
  });
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect(FAVICON_PATH, 301));
  app.get('/llms.txt', { schema: { summary: 'Plain-text guide for LLM agents (llms.txt)', response: { 200: z.string() } } }, async (request, reply) => {
    reply.type('text/plain; charset=utf-8');
    return llmsText(baseUrlOf(request, context.config.publicBaseUrl));
  });
  app.get(
    '/health',
    { schema: { summary: 'Health of the service and its database', response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
      // A stopping instance says so at once, so a load balancer stops sending it requests.
      if (app.shutdown.stopping) return reply.status(503).send({ status: 'stopping', version: '1.0', database: 'ok' });
      const ok = await context.database.ping(2000);
      if (!ok) return reply.status(503).send({ status: 'unavailable', version: '1.0', database: 'unavailable' });
      return { status: 'ok', version: '1.0', database: 'ok' };
    },
  );
}

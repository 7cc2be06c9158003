import { afterAll, beforeAll, expect, it } from 'vitest';
import { MembershipStore, openPlatformDatabase } from '@switchboard/core';
import { describeInBrowser, screenshot, signIn } from '@switchboard/web-kit/testing';
import { startUiHarness, type UiHarness } from '../helpers/ui-harness.ts';

type Platform = Awaited<ReturnType<typeof openPlatformDatabase>>;

/** The `sb_session` cookie of a browser context, as a Cookie header. */
async function sessionCookie(context: import('playwright-core').BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'sb_session');
  if (!cookie) throw new Error('no sb_session cookie');
  return `sb_session=${cookie.value}`;
}

// The failed-sign-in limit counts per client address too, and every page here signs in from 127.0.0.1:
// the tests that sign in successfully run first, the wrong password and the limit last.
describeInBrowser('signing in to the flows dashboard', () => {
  let h: UiHarness;
  let platform: Platform;

  beforeAll(async () => {
    h = await startUiHarness('sqlite');
    platform = await openPlatformDatabase(h.db.env);
    await h.stores.orgs.createOrg('beta', 'Beta Corp');
  });
  afterAll(async () => {
    await platform?.close();
    await h?.close();
  });

  it('signs in through the form at /login and lands on the Overview of the first organization', async () => {
    const page = await (await h.context()).newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.title()).toBe('Sign in · Switchboard Flows');
    await signIn(page, h.email, h.password);
    await page.waitForURL(`${h.base}/orgs/acme`);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Organization' }).inputValue()).toBe('acme');
  });

  it('Sign out shows the sign-in form again, also after a reload, and the old cookie gets 401 from the API', async () => {
    const page = await h.signedInPage('/orgs/acme/runs');
    const cookie = await sessionCookie(page.context());
    const before = await fetch(`${h.base}/api/llm/acme/runs`, { headers: { cookie } });
    expect(before.status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByLabel('Email').isVisible()).toBe(true);
    await page.goto('/orgs/acme/runs');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

    const after = await fetch(`${h.base}/api/llm/acme/runs`, { headers: { cookie } });
    expect(after.status).toBe(401);
    expect((await fetch(`${h.base}/api/session`, { headers: { cookie } })).status).toBe(401);
  });

  it("a member of another organization sees not-found for this one's pages, and the API answers 404", async () => {
    const user = await h.createUser('bea@example.com');
    expect(await new MembershipStore(platform.db).add('flows', 'beta', user.id)).toBe(true);
    const page = await h.signedInPage('/orgs/beta', user);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const switcher = page.getByRole('combobox', { name: 'Organization' });
    expect(await switcher.locator('option').allTextContents()).toEqual(['Beta Corp (beta)']);

    await page.goto('/orgs/acme/flows');
    await page.getByRole('heading', { name: 'Organization not found' }).waitFor();
    expect(await page.getByText('It does not exist, or you do not have access to it.').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Flows', exact: true }).count()).toBe(0);
    await screenshot(page, 'not-a-member');

    const cookie = await sessionCookie(page.context());
    const api = await fetch(`${h.base}/api/llm/acme/flows`, { headers: { cookie } });
    expect(api.status).toBe(404);
    const unknown = await fetch(`${h.base}/api/llm/no-such-org/flows`, { headers: { cookie } });
    expect(unknown.status).toBe(404);
    // The same answer as for an organization that does not exist: its existence is not revealed.
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe(((await unknown.json()) as { error: { code: string } }).error.code);
    expect((await fetch(`${h.base}/api/llm/beta/flows`, { headers: { cookie } })).status).toBe(200);
  });

  it('refuses a cookie-authenticated write from a foreign Origin with 403, and takes it from its own origin', async () => {
    const page = await h.signedInPage('/orgs/acme/tokens');
    const foreign = await page
      .context()
      .request.post('/api/llm/acme/tokens', { data: { name: 'csrf', scope: 'manage' }, headers: { origin: 'https://evil.example' } });
    expect(foreign.status()).toBe(403);
    const own = await page.context().request.post('/api/llm/acme/tokens', { data: { name: 'same-origin', scope: 'run' }, headers: { origin: h.base } });
    expect(own.status()).toBe(201);
    const names = (
      (await (await fetch(`${h.base}/api/llm/acme/tokens`, { headers: { authorization: `Bearer ${h.manageToken}` } })).json()) as {
        tokens: Array<{ name: string }>;
      }
    ).tokens.map((t) => t.name);
    expect(names).toContain('same-origin');
    expect(names).not.toContain('csrf');
  });

  it('says "Invalid email or password" for a wrong password and for an unknown email alike', async () => {
    const page = await (await h.context()).newPage();
    await page.goto('/orgs/acme');
    await page.getByLabel('Email').fill(h.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('Invalid email or password');
    await screenshot(page, 'sign-in-error');

    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForFunction(
      () => document.querySelector('[role=alert]')?.textContent === 'Invalid email or password' && !document.querySelector('[aria-busy=true]'),
    );
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });

  it('after 10 failed sign-ins the right password gets the 429 message', async () => {
    const page = await (await h.context()).newPage();
    await page.goto('/login');
    // Two failures above; eight more here make ten within the minute.
    for (let i = 0; i < 8; i++) {
      const response = await page.context().request.post('/api/session', { data: { email: h.email, password: `wrong ${i}` }, headers: { origin: h.base } });
      expect(response.status()).toBe(401);
    }
    await page.getByLabel('Email').fill(h.email);
    await page.getByLabel('Password').fill(h.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/^Too many failed sign-ins: try again in \d+ s$/);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    const direct = await page.context().request.post('/api/session', { data: { email: h.email, password: h.password }, headers: { origin: h.base } });
    expect(direct.status()).toBe(429);
    expect(Number(direct.headers()['retry-after'])).toBeGreaterThan(0);
  });
});

import { lazy, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation, useNavigate, useParams } from 'react-router-dom';
import {
  accountRoutes,
  AppShell,
  LazyPage,
  NoTenantPage,
  NotFoundState,
  SessionGate,
  api,
  newTenantForm,
  preloadablePage,
  useSession,
} from '@switchboard/web-kit';
import type { FlowsSessionExtra } from './api/types.ts';
import { currentOrg, rememberOrg } from './org-memory.ts';

const builder = preloadablePage(() => import('./pages/builder-page.tsx'));
// A canvas opened directly (a link, a reload) fetches its chunk alongside the session check.
if (/^\/orgs\/[^/]+\/flows\/[^/]+\/?$/.test(window.location.pathname)) void builder.preload();

/** The organization's pages: each one's path under `/orgs/{org}` (none: the Overview) and its module, loaded when first opened; the canvas fills the window. */
const ORG_PAGES: Array<{ path?: string; Page: ComponentType; full?: boolean }> = [
  { Page: lazy(() => import('./pages/overview-page.tsx')) },
  { path: 'flows', Page: lazy(() => import('./pages/flows-page.tsx')) },
  { path: 'flows/:slug', Page: builder.Page, full: true },
  { path: 'flows/:slug/api', Page: lazy(() => import('./pages/flow-api-page.tsx')) },
  { path: 'runs', Page: lazy(() => import('./pages/runs-page.tsx')) },
  { path: 'runs/:runId', Page: lazy(() => import('./pages/run-page.tsx')) },
  { path: 'knowledge', Page: lazy(() => import('./pages/knowledge-page.tsx')) },
  { path: 'tokens', Page: lazy(() => import('./pages/tokens-page.tsx')) },
  { path: 'providers', Page: lazy(() => import('./pages/providers-page.tsx')) },
  { path: 'secrets', Page: lazy(() => import('./pages/secrets-page.tsx')) },
  { path: 'members', Page: lazy(() => import('./pages/members-page.tsx')) },
];

// The route table: shaped like the SMS console's (sign-in, the organization's pages, not found), with its own pages.
/** The flows dashboard: sign-in, then the organization's pages, each at its own URL. */
export function App() {
  return (
    <SessionGate service="Switchboard Flows">
      <Routes>
        {['/', '/login'].map((path) => (
          <Route key={path} path={path} element={<ToCurrentOrg />} />
        ))}
        <Route path="/flows/:slug" element={<ToCurrentOrg suffix="flows" />} />
        <Route path="/orgs/:org" element={<OrgLayout />}>
          {ORG_PAGES.map(({ path, Page, full }) => {
            const element = (
              // biome-ignore lint/correctness/useJsxKeyInIterable: not a list item: the element goes to the keyed Route's element prop below.
              <LazyPage full={full}>
                <Page />
              </LazyPage>
            );
            return path ? <Route key={path} path={path} element={element} /> : <Route key="" index element={element} />;
          })}
          <Route path="*" element={<NotFoundState what="Page" />} />
        </Route>
        {accountRoutes((page) => (
          <Shell org={undefined}>{page}</Shell>
        ))}
        <Route
          path="*"
          element={
            <Shell org={undefined}>
              <NotFoundState what="Page" />
            </Shell>
          }
        />
      </Routes>
    </SessionGate>
  );
}

/** The switcher's **New organization** (admins): `POST /api/orgs`, then the new organization opens. */
const NEW_ORGANIZATION = newTenantForm({
  label: 'New organization',
  codeLabel: 'Code',
  codeHint: '2 to 40 characters of a-z, 0-9 and -; in URLs and the API, and never changed.',
  create: ({ code, name }) => api<{ org_code: string }>('/api/orgs', { method: 'POST', body: { org_code: code, ...(name ? { name } : {}) } }),
  codeOf: (result) => (result as { org_code: string }).org_code,
});

/** `/`, `/login` and `/flows/{slug}` go to the same page of the current organization (the last one used, else the first). */
function ToCurrentOrg({ suffix }: { suffix?: string }) {
  const { session } = useSession<FlowsSessionExtra>();
  const params = useParams();
  const codes = session.organizations.map((org) => org.org_code);
  const org = currentOrg(codes);
  const navigate = useNavigate();
  if (!org) {
    return (
      <Shell org={undefined}>
        <NoTenantPage
          what="organization"
          command={`npx switchboard flows member add ORG_CODE ${session.user.email}`}
          create={NEW_ORGANIZATION}
          onCreated={(code) => {
            rememberOrg(code);
            void navigate(`/orgs/${code}`);
          }}
        />
      </Shell>
    );
  }
  const rest = suffix ? `/${suffix}/${encodeURIComponent(params.slug ?? '')}` : '';
  return <Navigate to={`/orgs/${org}${rest}`} replace />;
}

/** The frame of every organization page: 404 for an organization the user may not see (its existence is not revealed). */
function OrgLayout() {
  const { org } = useParams();
  const { session } = useSession<FlowsSessionExtra>();
  const known = session.organizations.some((o) => o.org_code === org);
  if (known && org) rememberOrg(org);
  return <Shell org={known ? org : undefined}>{known ? <Outlet /> : <NotFoundState what="Organization" />}</Shell>;
}

/** Top bar: navigation of the organization, the **Organization** switcher, the user and **Sign out**. */
function Shell({ org, children }: { org: string | undefined; children: ReactNode }) {
  const { session } = useSession<FlowsSessionExtra>();
  const navigate = useNavigate();
  const location = useLocation();
  const base = org ? `/orgs/${org}` : '';
  const nav = org
    ? [
        { to: base, label: 'Overview', end: true },
        { to: `${base}/flows`, label: 'Flows' },
        { to: `${base}/runs`, label: 'Runs' },
        { to: `${base}/knowledge`, label: 'Knowledge' },
        { to: `${base}/tokens`, label: 'LLM Hub', active: /\/(tokens|providers|secrets)$/.test(location.pathname) },
        ...(session.user.role === 'admin' ? [{ to: `${base}/members`, label: 'Members' }] : []),
      ]
    : [];
  const switchOrg = (next: string) => {
    rememberOrg(next);
    // Same section in the other organization; a detail page (one flow, one run) goes to its list.
    const section = location.pathname.split('/')[3] ?? '';
    // void: under BrowserRouter navigate() returns nothing; the promise its type allows is a data router's.
    void navigate(`/orgs/${next}${section ? `/${section}` : ''}`);
  };
  return (
    <AppShell
      product="Switchboard Flows"
      home={org ? base : '/'}
      nav={nav}
      tenant={{
        label: 'Organization',
        current: org,
        tenants: session.organizations.map((o) => ({ code: o.org_code, name: o.name })),
        onSwitch: switchOrg,
        create: NEW_ORGANIZATION,
      }}
    >
      {children}
    </AppShell>
  );
}

import { lazy, Suspense, type ReactNode } from 'react';
import { Link, Navigate, Outlet, Route, Routes, useLocation, useNavigate, useParams } from 'react-router-dom';
import { AppShell, EmptyState, Loading, SessionGate, preloadablePage, useSession } from '@switchboard/web-kit';
import type { FlowsSessionExtra } from './api/types.ts';
import { currentOrg, rememberOrg } from './org-memory.ts';

const OverviewPage = lazy(() => import('./pages/overview-page.tsx'));
const FlowsPage = lazy(() => import('./pages/flows-page.tsx'));
const builder = preloadablePage(() => import('./pages/builder-page.tsx'));
// A canvas opened directly (a link, a reload) fetches its chunk alongside the session check.
if (/^\/orgs\/[^/]+\/flows\/[^/]+\/?$/.test(window.location.pathname)) void builder.preload();
const BuilderPage = builder.Page;
const FlowApiPage = lazy(() => import('./pages/flow-api-page.tsx'));
const RunsPage = lazy(() => import('./pages/runs-page.tsx'));
const RunPage = lazy(() => import('./pages/run-page.tsx'));
const KnowledgePage = lazy(() => import('./pages/knowledge-page.tsx'));
const TokensPage = lazy(() => import('./pages/tokens-page.tsx'));
const ProvidersPage = lazy(() => import('./pages/providers-page.tsx'));
const SecretsPage = lazy(() => import('./pages/secrets-page.tsx'));

/** The flows dashboard: sign-in, then the organization's pages, each at its own URL. */
export function App() {
  return (
    <SessionGate service="Switchboard Flows">
      <Routes>
        <Route path="/" element={<ToCurrentOrg />} />
        <Route path="/login" element={<ToCurrentOrg />} />
        <Route path="/flows/:slug" element={<ToCurrentOrg suffix="flows" />} />
        <Route path="/orgs/:org" element={<OrgLayout />}>
          <Route index element={<Page element={<OverviewPage />} />} />
          <Route path="flows" element={<Page element={<FlowsPage />} />} />
          <Route path="flows/:slug" element={<Page element={<BuilderPage />} full />} />
          <Route path="flows/:slug/api" element={<Page element={<FlowApiPage />} />} />
          <Route path="runs" element={<Page element={<RunsPage />} />} />
          <Route path="runs/:runId" element={<Page element={<RunPage />} />} />
          <Route path="knowledge" element={<Page element={<KnowledgePage />} />} />
          <Route path="tokens" element={<Page element={<TokensPage />} />} />
          <Route path="providers" element={<Page element={<ProvidersPage />} />} />
          <Route path="secrets" element={<Page element={<SecretsPage />} />} />
          <Route path="*" element={<NotFound what="Page" />} />
        </Route>
        <Route path="*" element={<Shell org={undefined}><NotFound what="Page" /></Shell>} />
      </Routes>
    </SessionGate>
  );
}

/** A lazily loaded page; `full` pages (the canvas) fill the window instead of the centred column. */
function Page({ element, full }: { element: ReactNode; full?: boolean }) {
  return <Suspense fallback={<Loading />}>{full ? element : <div className="page">{element}</div>}</Suspense>;
}

/** `/`, `/login` and `/flows/{slug}` go to the same page of the current organization (the last one used, else the first). */
function ToCurrentOrg({ suffix }: { suffix?: string }) {
  const { session } = useSession<FlowsSessionExtra>();
  const params = useParams();
  const codes = session.organizations.map((org) => org.org_code);
  const org = currentOrg(codes);
  if (!org) {
    return (
      <Shell org={undefined}>
        <div className="page">
          <EmptyState title="No organization yet">
            <p>You are not a member of any organization. An administrator adds you with</p>
            <code className="inline-code">npx switchboard flows member add ORG_CODE {session.user.email}</code>
          </EmptyState>
        </div>
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
  return (
    <Shell org={known ? org : undefined}>
      {known ? <Outlet /> : <NotFound what="Organization" />}
    </Shell>
  );
}

function NotFound({ what }: { what: string }) {
  return (
    <div className="page">
      <EmptyState title={`${what} not found`} action={<Link to="/">Go to your organization</Link>}>
        It does not exist, or you do not have access to it.
      </EmptyState>
    </div>
  );
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
      ]
    : [];
  const switchOrg = (next: string) => {
    rememberOrg(next);
    // Same section in the other organization; a detail page (one flow, one run) goes to its list.
    const section = location.pathname.split('/')[3] ?? '';
    navigate(`/orgs/${next}${section ? `/${section}` : ''}`);
  };
  return (
    <AppShell
      product="Switchboard Flows"
      home={org ? base : '/'}
      nav={nav}
      tenant={{ label: 'Organization', current: org, tenants: session.organizations.map((o) => ({ code: o.org_code, name: o.name })), onSwitch: switchOrg }}
    >
      {children}
    </AppShell>
  );
}

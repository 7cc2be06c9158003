import { lazy, useMemo, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation, useNavigate, useParams } from 'react-router-dom';
import { accountRoutes, AppShell, LazyPage, NoTenantPage, NotFoundState, SessionGate, newTenantForm, preloadablePage, useSession } from '@switchboard/web-kit';
import { consolePage } from '../../src/domain/console-pages.ts';
import { createOrganization, orgApi } from './api/client.ts';
import { OrgContext } from './org-context.ts';
import type { SmsSessionExtra } from './api/types.ts';
import { currentOrg, rememberOrg } from './org-memory.ts';
import { paths } from './routes.ts';

const inbox = preloadablePage(() => import('./pages/inbox-page.tsx'));
// The inbox opened directly (a link, a reload, `/` signed in) fetches its chunk alongside the session check
// (the service names it in the page's HTML, so it is usually loaded already).
const opened = consolePage(window.location.pathname.split('/').filter(Boolean));
if (window.location.pathname === '/' || opened?.section === 'inbox') void inbox.preload();

/** The organization's pages: each one's path under `/orgs/{org_id}` and its module, loaded when first opened. */
const ORG_PAGES: Array<{ path: string; Page: ComponentType }> = [
  { path: 'inbox', Page: inbox.Page },
  { path: 'inbox/:peer', Page: inbox.Page },
  { path: 'send', Page: lazy(() => import('./pages/send-page.tsx')) },
  { path: 'gateway', Page: lazy(() => import('./pages/gateway-page.tsx')) },
  { path: 'sims', Page: lazy(() => import('./pages/sims-page.tsx')) },
  { path: 'keys', Page: lazy(() => import('./pages/keys-page.tsx')) },
  { path: 'members', Page: lazy(() => import('./pages/members-page.tsx')) },
];

// The route table: shaped like the flows dashboard's (sign-in, the organization's pages, not found), with its own pages.
/** The SMS console: sign-in, then an organization's pages, each at its own URL. */
export function App() {
  return (
    <SessionGate service="Switchboard SMS">
      <Routes>
        {['/', '/login'].map((path) => (
          <Route key={path} path={path} element={<ToCurrentOrg />} />
        ))}
        <Route path="/orgs/:org" element={<OrgLayout />}>
          <Route index element={<Navigate to="inbox" replace />} />
          {ORG_PAGES.map(({ path, Page }) => (
            <Route
              key={path}
              path={path}
              element={
                path.startsWith('inbox') ? (
                  <LazyPage full>
                    <Page />
                  </LazyPage>
                ) : (
                  <LazyPage>
                    <Page />
                  </LazyPage>
                )
              }
            />
          ))}
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
  codeLabel: 'Organization id',
  codeHint: '1 to 64 characters of a-z, 0-9, _ and -; in URLs, the API and the gateway webhook, and never changed.',
  create: ({ code, name }) => createOrganization({ org_id: code, ...(name ? { name } : {}) }),
  codeOf: (result) => (result as { org_id: string }).org_id,
});

/** `/` and `/login` go to the inbox of the current organization (the last one used, else the first). */
function ToCurrentOrg() {
  const { session } = useSession<SmsSessionExtra>();
  const org = currentOrg(session.organizations.map((o) => o.org_id));
  const navigate = useNavigate();
  if (!org) {
    return (
      <Shell org={undefined}>
        <NoTenantPage
          what="organization"
          command={`npx switchboard sms member add ORG_ID ${session.user.email}`}
          create={NEW_ORGANIZATION}
          onCreated={(code) => {
            rememberOrg(code);
            void navigate(paths.inbox(code));
          }}
        />
      </Shell>
    );
  }
  return <Navigate to={paths.inbox(org)} replace />;
}

/** The frame of every organization page: "not found" for an organization the user may not see (its existence is not revealed). */
function OrgLayout() {
  const { org } = useParams();
  const { session } = useSession<SmsSessionExtra>();
  const known = session.organizations.find((o) => o.org_id === org);
  if (known) rememberOrg(known.org_id);
  const value = useMemo(() => (known ? { orgId: known.org_id, name: known.name, api: orgApi(known.org_id) } : null), [known]);
  return (
    <Shell org={value ? value.orgId : undefined}>
      {value ? (
        <OrgContext.Provider value={value}>
          <Outlet />
        </OrgContext.Provider>
      ) : (
        <NotFoundState what="Organization" />
      )}
    </Shell>
  );
}

/** Top bar: **Inbox**, **Send**, **Gateway**, **SIMs**, **Keys**, the **Organization** switcher, the user and **Sign out**. */
function Shell({ org, children }: { org: string | undefined; children: ReactNode }) {
  const { session } = useSession<SmsSessionExtra>();
  const navigate = useNavigate();
  const location = useLocation();
  const nav = org
    ? [
        { to: paths.inbox(org), label: 'Inbox' },
        { to: paths.send(org), label: 'Send' },
        { to: paths.gateway(org), label: 'Gateway' },
        { to: paths.sims(org), label: 'SIMs' },
        { to: paths.keys(org), label: 'Keys' },
        ...(session.user.role === 'admin' ? [{ to: paths.members(org), label: 'Members' }] : []),
      ]
    : [];
  const switchOrg = (next: string) => {
    rememberOrg(next);
    // The same section in the other organization; a conversation goes to the inbox.
    const section = location.pathname.split('/')[3] ?? 'inbox';
    void navigate(`/orgs/${encodeURIComponent(next)}/${section}`);
  };
  return (
    <AppShell
      product="Switchboard SMS"
      home={org ? paths.inbox(org) : '/'}
      nav={nav}
      tenant={{
        label: 'Organization',
        current: org,
        tenants: session.organizations.map((o) => ({ code: o.org_id, name: o.name })),
        onSwitch: switchOrg,
        create: NEW_ORGANIZATION,
      }}
    >
      {children}
    </AppShell>
  );
}

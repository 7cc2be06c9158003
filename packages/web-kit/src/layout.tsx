import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { Button } from './forms.tsx';
import { useSession } from './session.tsx';
import { EmptyState } from './states.tsx';

/** A link of the main navigation; `active` marks it for pages below another URL (LLM Hub for its Providers page). */
export interface NavItem {
  to: string;
  label: string;
  /** Active only on its own URL, not below it. */
  end?: boolean;
  active?: boolean;
}

/** The tenant switcher: the organizations or projects the user may see, by code. */
export interface TenantSwitcher {
  /** Its accessible name: **Organization**, **Project**. */
  label: string;
  current: string | undefined;
  tenants: Array<{ code: string; name: string }>;
  onSwitch: (code: string) => void;
}

/**
 * The page frame: a top bar with the product name, the service's navigation,
 * and on the right a status (the ticket board's Live), the tenant switcher and
 * the signed-in account with **Sign out**.
 */
export function AppShell({
  product,
  home,
  nav,
  tenant,
  status,
  children,
}: {
  product: string;
  home: string;
  nav: NavItem[];
  tenant: TenantSwitcher;
  status?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="shell">
      <header className="topbar">
        <Link to={home} className="brand">
          <span className="brand-mark" aria-hidden="true" />
          {product}
        </Link>
        <nav className="nav" aria-label="Main">
          {nav.map((item) => (
            <NavLink key={item.label} to={item.to} end={item.end} className={item.active ? 'active' : undefined}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="topbar-right">
          {status}
          <TenantSelect {...tenant} />
          <Account />
        </div>
      </header>
      <main className="main" id="main">
        {children}
      </main>
    </div>
  );
}

/** The switcher as a select of `Name (CODE)`; "Choose…" while no tenant is open; nothing when the user sees none. */
function TenantSelect({ label, current, tenants, onSwitch }: TenantSwitcher) {
  if (tenants.length === 0) return null;
  return (
    <select
      className="select"
      style={{ width: 'auto', height: 28 }}
      aria-label={label}
      value={current ?? ''}
      onChange={(event) => onSwitch(event.target.value)}
    >
      {current ? null : <option value="">Choose…</option>}
      {tenants.map((tenant) => (
        <option key={tenant.code} value={tenant.code}>
          {tenant.name} ({tenant.code})
        </option>
      ))}
    </select>
  );
}

/** Who is signed in (the email; name and email as its tooltip) and **Sign out**. */
function Account() {
  const { session, signOut } = useSession();
  return (
    <>
      <span className="muted truncate" style={{ maxWidth: 200 }} title={`${session.user.name} (${session.user.email})`}>
        {session.user.email}
      </span>
      <Button small variant="ghost" onClick={() => void signOut()}>
        Sign out
      </Button>
    </>
  );
}

/** What a signed-in user who belongs to no organization (or project) sees: that they belong to none, and the command an administrator adds them with. */
export function NoTenantPage({ what, command, children }: { what: string; command: string; children?: ReactNode }) {
  return (
    <div className="page">
      <EmptyState title={`No ${what} yet`}>
        <p>You are not a member of any {what}. An administrator adds you with</p>
        <code className="inline-code">{command}</code>
        {children}
      </EmptyState>
    </div>
  );
}

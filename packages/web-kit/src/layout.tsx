import { useState, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { Button } from './forms.tsx';
import { FormDialog, type Form } from './record-form.tsx';
import { useSession } from './session.tsx';
import { EmptyState } from './states.tsx';
import { UserMenu } from './user-menu.tsx';

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
  /** **New organization** / **New project**: offered to admins only, at the end of the switcher. */
  create?: TenantCreate;
}

/** How a switcher makes a new tenant: its entry's name, the form, and the code of what the form made. */
export interface TenantCreate {
  /** The entry and the dialog's title: **New organization**, **New project**. */
  label: string;
  form: Form<unknown>;
  /** The code of the new tenant, from the create answer: the switcher opens it once the session lists it. */
  codeOf(result: unknown): string;
}

// The switcher's value for its create entry: no service's codes hold a '+'.
const CREATE = '+new';

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

/**
 * The switcher as a select of `Name (CODE)`; "Choose…" while no tenant is open. For an admin it ends with
 * **New organization…** / **New project…**, which opens the create dialog and then the new tenant. Nothing
 * when there is nothing to choose or create.
 */
function TenantSelect({ label, current, tenants, onSwitch, create }: TenantSwitcher) {
  const { session } = useSession();
  const [creating, setCreating] = useState(false);
  const offer = create && session.user.role === 'admin' ? create : undefined;
  if (tenants.length === 0 && !offer) return null;
  return (
    <>
      <select
        className="select"
        style={{ width: 'auto', height: 28 }}
        aria-label={label}
        value={current ?? ''}
        onChange={(event) => (event.target.value === CREATE ? setCreating(true) : onSwitch(event.target.value))}
      >
        {current ? null : (
          <option value="" disabled>
            Choose…
          </option>
        )}
        {tenants.map((tenant) => (
          <option key={tenant.code} value={tenant.code}>
            {tenant.name} ({tenant.code})
          </option>
        ))}
        {offer ? <option value={CREATE}>{offer.label}…</option> : null}
      </select>
      {offer && creating ? <CreateTenantDialog create={offer} onClose={() => setCreating(false)} onCreated={onSwitch} /> : null}
    </>
  );
}

/** The create dialog of a switcher's **New …** entry; once made, the session is read again (its pages check the list) and the new tenant opened. */
function CreateTenantDialog({ create, onClose, onCreated }: { create: TenantCreate; onClose: () => void; onCreated: (code: string) => void }) {
  const { refresh } = useSession();
  return (
    <FormDialog
      spec={create.form}
      title={create.label}
      onClose={onClose}
      onDone={async (result) => {
        await refresh();
        onClose();
        onCreated(create.codeOf(result));
      }}
    />
  );
}

/** Who is signed in (their menu: Account, and People for admins) and **Sign out**. */
function Account() {
  const { signOut } = useSession();
  return (
    <>
      <UserMenu />
      <Button small variant="ghost" onClick={() => void signOut()}>
        Sign out
      </Button>
    </>
  );
}

/**
 * What a signed-in user who sees no organization (or project) sees: a member, that they belong to none and
 * the command an administrator adds them with; an admin (there is none yet), the button that creates one.
 */
export function NoTenantPage({
  what,
  command,
  create,
  onCreated,
  children,
}: {
  what: string;
  command: string;
  create?: TenantCreate;
  onCreated?: (code: string) => void;
  children?: ReactNode;
}) {
  const { session } = useSession();
  const [creating, setCreating] = useState(false);
  if (session.user.role === 'admin' && create && onCreated) {
    return (
      <div className="page">
        <EmptyState
          title={`No ${what} yet`}
          action={
            <Button variant="primary" onClick={() => setCreating(true)}>
              {create.label}
            </Button>
          }
        >
          <p>Create the first one; then add its members. It is also offered at the end of the switcher at the top.</p>
        </EmptyState>
        {creating ? <CreateTenantDialog create={create} onClose={() => setCreating(false)} onCreated={onCreated} /> : null}
      </div>
    );
  }
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

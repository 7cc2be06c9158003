import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from './forms.tsx';

/** Shown while a page's data loads. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** Shown when a list has nothing yet: what it is and the first thing to do. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state">
      <h2>{title}</h2>
      {children ? <div>{children}</div> : null}
      {action}
    </div>
  );
}

/** Shown when loading failed: the reason and a way to try again. */
export function ErrorState({ error, onRetry, title = 'Something went wrong' }: { error: Error; onRetry?: () => void; title?: string }) {
  return (
    <div className="state error" role="alert">
      <h2>{title}</h2>
      <div>{error.message}</div>
      {onRetry ? <Button onClick={onRetry}>Try again</Button> : null}
    </div>
  );
}

/** A page's title row with its actions on the right. */
export function PageHeader({ title, children, crumbs }: { title: ReactNode; children?: ReactNode; crumbs?: ReactNode }) {
  return (
    <div>
      {crumbs ? <div className="breadcrumbs">{crumbs}</div> : null}
      <div className="page-header">
        <h1>{title}</h1>
        {children ? <div className="actions">{children}</div> : null}
      </div>
    </div>
  );
}

/**
 * A page for one thing (a flow, a run) that is not there, or not for this
 * user: its title, what was asked for, and the way back to the list it
 * belongs to.
 */
export function NotFoundPage({
  title,
  crumbs,
  back,
  children,
}: {
  title: string;
  crumbs?: ReactNode;
  back: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} crumbs={crumbs} />
      <div className="card">
        <EmptyState title={title} action={<Link to={back.to}>{back.label}</Link>}>
          {children}
        </EmptyState>
      </div>
    </>
  );
}

/**
 * A page, or a tenant, the user may not see: "… not found" (whether it exists is not revealed) and the way
 * home, named for the service's tenant ("Go to your project" on the ticket board).
 */
export function NotFoundState({ what, home = 'Go to your organization' }: { what: string; home?: string }) {
  return (
    <div className="page">
      <EmptyState title={`${what} not found`} action={<Link to="/">{home}</Link>}>
        It does not exist, or you do not have access to it.
      </EmptyState>
    </div>
  );
}

/** A small coloured label. */
export function Badge({ kind, children }: { kind?: 'success' | 'danger' | 'warning' | 'accent'; children: ReactNode }) {
  return <span className={`badge ${kind ?? ''}`}>{children}</span>;
}

/** A progress bar with an accessible value. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.max(0, Math.min(100, Math.round(value * 100)));
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      <div style={{ width: `${percent}%` }} />
    </div>
  );
}

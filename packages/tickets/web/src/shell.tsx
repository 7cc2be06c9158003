import type { ReactNode } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import { AppShell, Button, useSession } from '@switchboard/web-kit';
import type { TicketsSessionExtra } from './api/types.ts';
import { rememberProject } from './project-memory.ts';
import { useLiveStatus } from './project-context.tsx';
import { paths } from './routes.ts';

/** Top bar: **Board**, **Documents**, **Search**, **Settings**, the **Project** switcher, the live indicator, the user and **Sign out**. */
export function Shell({ project, children }: { project: string | undefined; children: ReactNode }) {
  const { session, signOut } = useSession<TicketsSessionExtra>();
  const navigate = useNavigate();
  const location = useLocation();
  const onBoard = location.pathname.startsWith('/tickets/') || /^\/projects\/[^/]+\/board/.test(location.pathname);
  const nav = project ? (
    <>
      <NavLink to={paths.board(project)} className={onBoard ? 'active' : undefined}>
        Board
      </NavLink>
      <NavLink to={paths.documents(project)}>Documents</NavLink>
      <NavLink to={paths.search(project)}>Search</NavLink>
      <NavLink to={`/projects/${encodeURIComponent(project)}/settings`}>Settings</NavLink>
    </>
  ) : null;
  const switchProject = (next: string) => {
    rememberProject(next);
    // The same section in the other project; a ticket or a document goes to its list.
    const section = location.pathname.startsWith('/tickets/') ? 'board' : (location.pathname.split('/')[3] ?? 'board');
    navigate(`/projects/${encodeURIComponent(next)}/${section}`);
  };
  const right = (
    <>
      {project ? <LiveIndicator /> : null}
      {session.projects.length > 0 ? (
        <select className="select" style={{ width: 'auto', height: 28 }} aria-label="Project" value={project ?? ''} onChange={(event) => switchProject(event.target.value)}>
          {project ? null : <option value="">Choose…</option>}
          {session.projects.map((p) => (
            <option key={p.key} value={p.key}>
              {p.name} ({p.key})
            </option>
          ))}
        </select>
      ) : null}
      <span className="muted truncate" style={{ maxWidth: 200 }} title={`${session.user.name} (${session.user.email})`}>
        {session.user.email}
      </span>
      <Button small variant="ghost" onClick={() => void signOut()}>
        Sign out
      </Button>
    </>
  );
  return (
    <AppShell product="Switchboard Tickets" home={project ? paths.board(project) : '/'} nav={nav} right={right}>
      {children}
    </AppShell>
  );
}

/** "Live" while the change stream is up, "Reconnecting…" while it is not. */
function LiveIndicator() {
  const status = useLiveStatus();
  const label = status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  return (
    <span className={`live-indicator ${status}`} role="status" aria-live="polite" title={status === 'live' ? 'Changes by anyone appear here as they happen' : 'Changes will appear once the connection is back'}>
      <span className="live-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { AppShell, LiveIndicator as KitLiveIndicator, useSession } from '@switchboard/web-kit';
import type { TicketsSessionExtra } from './api/types.ts';
import { rememberProject } from './project-memory.ts';
import { NEW_PROJECT } from './new-project.ts';
import { useLiveStatus } from './project-context.tsx';
import { paths, switchProjectPath } from './routes.ts';
import { PaletteButton } from './palette/command-palette.tsx';

/** Top bar: **Board**, **Documents**, **Search**, **Settings**, the **Project** switcher, the live indicator, the user and **Sign out**. */
export function Shell({ project, children }: { project: string | undefined; children: ReactNode }) {
  const { session } = useSession<TicketsSessionExtra>();
  const navigate = useNavigate();
  const location = useLocation();
  const onBoard = location.pathname.startsWith('/tickets/') || /^\/projects\/[^/]+\/board/.test(location.pathname);
  const nav = project
    ? [
        { to: paths.board(project), label: 'Board', active: onBoard },
        { to: paths.documents(project), label: 'Documents' },
        { to: paths.search(project), label: 'Search' },
        { to: `/projects/${encodeURIComponent(project)}/settings`, label: 'Settings' },
      ]
    : [];
  const switchProject = (next: string) => {
    rememberProject(next);
    // void: under BrowserRouter navigate() returns nothing; the promise its type allows is a data router's.
    void navigate(switchProjectPath(next, location.pathname));
  };
  return (
    <AppShell
      product="Switchboard Tickets"
      home={project ? paths.board(project) : '/'}
      nav={nav}
      tenant={{
        label: 'Project',
        current: project,
        tenants: session.projects.map((p) => ({ code: p.key, name: p.name })),
        onSwitch: switchProject,
        create: NEW_PROJECT,
      }}
      status={
        project ? (
          <>
            <PaletteButton />
            <LiveIndicator />
          </>
        ) : null
      }
    >
      {children}
    </AppShell>
  );
}

/** "Live" while the change stream is up, "Reconnecting…" while it is not. */
function LiveIndicator() {
  return (
    <KitLiveIndicator
      status={useLiveStatus()}
      title={{ live: 'Changes by anyone appear here as they happen', waiting: 'Changes will appear once the connection is back' }}
    />
  );
}

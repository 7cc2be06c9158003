import { lazy } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { accountRoutes, LazyPage, NoTenantPage, NotFoundState, SessionGate, preloadablePage, useSession } from '@switchboard/web-kit';
import type { TicketsSessionExtra } from './api/types.ts';
import { currentProject, rememberProject } from './project-memory.ts';
import { ProjectProvider } from './project-context.tsx';
import { paths, projectOfTicketKey } from './routes.ts';
import { boardPageProject } from '../../src/domain/board-page.ts';
import { Shell } from './shell.tsx';
import { NEW_PROJECT } from './new-project.ts';
import { CommandPalette } from './palette/command-palette.tsx';

const board = preloadablePage(() => import('./board/board-page.tsx'));
// A board or ticket opened directly (a link, a reload) fetches the board's chunk alongside the session check
// (the service names it in the page's HTML, so it is usually loaded already).
if (boardPageProject(window.location.pathname.split('/').filter(Boolean))) void board.preload();
const BoardPage = board.Page;
const DocumentsPage = lazy(() => import('./pages/documents-page.tsx'));
const SearchPage = lazy(() => import('./pages/search-page.tsx'));
const SettingsPage = lazy(() => import('./settings/settings-page.tsx'));

/** The ticket board's UI: sign-in, then a project's pages, each at its own URL (the project in it). */
export function App() {
  return (
    <SessionGate service="Switchboard Tickets">
      <Routes>
        <Route path="/" element={<ToCurrentProject section="board" />} />
        <Route path="/login" element={<ToCurrentProject section="board" />} />
        {['board', 'documents', 'search', 'settings'].map((section) => (
          <Route key={section} path={`/${section}`} element={<ToCurrentProject section={section} />} />
        ))}
        {accountRoutes((page) => (
          <Shell project={undefined}>{page}</Shell>
        ))}
        <Route path="*" element={<ProjectFrame />} />
      </Routes>
    </SessionGate>
  );
}

/** `/` (and `/board`, `/documents`, …) go to that page of the current project: the last one used, else the first by key. */
function ToCurrentProject({ section }: { section: string }) {
  const { session } = useSession<TicketsSessionExtra>();
  const location = useLocation();
  const project = currentProject(session.projects.map((p) => p.key));
  const navigate = useNavigate();
  if (!project) {
    return (
      <Shell project={undefined}>
        <NoTenantPage
          what="project"
          command={`npx switchboard tickets member add KEY ${session.user.email}`}
          create={NEW_PROJECT}
          onCreated={(key) => {
            rememberProject(key);
            void navigate(`/projects/${encodeURIComponent(key)}/board`);
          }}
        >
          <p>
            or, to start a new project: <code className="inline-code">npx switchboard tickets project create KEY --name "Name"</code>
          </p>
        </NoTenantPage>
      </Shell>
    );
  }
  return <Navigate to={`/projects/${encodeURIComponent(project)}/${section}${location.search}`} replace />;
}

/** Which project and page a URL names: `/projects/{KEY}/…` or `/tickets/{KEY-N}`. */
function parseLocation(pathname: string): { project: string | undefined; section: string; ticket?: string } {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'tickets' && parts[1] && parts.length === 2)
    return { project: projectOfTicketKey(parts[1]), section: 'board', ticket: parts[1].toUpperCase() };
  if (parts[0] === 'projects' && parts[1]) return { project: parts[1].toUpperCase(), section: parts[2] ?? '' };
  return { project: undefined, section: '' };
}

/**
 * The frame of every project page. The board stays mounted while a ticket
 * opens over it and closes again (`/projects/K/board` ↔ `/tickets/K-N`), so
 * a board of ten thousand tickets is read once. A project the user may not
 * see is "not found", as the API says (its existence is not revealed).
 */
function ProjectFrame() {
  const { session } = useSession<TicketsSessionExtra>();
  const location = useLocation();
  const { project, section, ticket } = parseLocation(location.pathname);
  const known = project ? session.projects.find((p) => p.key === project) : undefined;
  if (!project || !known) {
    return (
      <Shell project={undefined}>
        <NotFound what={project ? 'Project' : 'Page'} />
      </Shell>
    );
  }
  rememberProject(project);
  if (section === '') return <Navigate to={paths.board(project)} replace />;
  return (
    <ProjectProvider key={project} projectKey={project} name={known.name}>
      <CommandPalette />
      <Shell project={project}>
        {section === 'board' ? (
          <LazyPage full>
            <BoardPage ticketKey={ticket} />
          </LazyPage>
        ) : (
          <Routes>
            <Route
              path="/projects/:key/documents"
              element={
                <LazyPage>
                  <DocumentsPage />
                </LazyPage>
              }
            />
            <Route
              path="/projects/:key/documents/:slug"
              element={
                <LazyPage>
                  <DocumentsPage />
                </LazyPage>
              }
            />
            <Route
              path="/projects/:key/search"
              element={
                <LazyPage>
                  <SearchPage />
                </LazyPage>
              }
            />
            <Route path="/projects/:key/settings" element={<Navigate to={paths.settings(project)} replace />} />
            <Route
              path="/projects/:key/settings/:tab"
              element={
                <LazyPage>
                  <SettingsPage />
                </LazyPage>
              }
            />
            <Route path="*" element={<NotFound what="Page" />} />
          </Routes>
        )}
      </Shell>
    </ProjectProvider>
  );
}

function NotFound({ what }: { what: string }) {
  return <NotFoundState what={what} home="Go to your project" />;
}

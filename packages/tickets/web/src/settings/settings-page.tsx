import type { ReactNode } from 'react';
import { NavLink, Navigate, useParams } from 'react-router-dom';
import { ErrorState, Loading, PageHeader, useResource, useTitle } from '@switchboard/web-kit';
import { useLiveChanges, useProject } from '../project-context.tsx';
import { SETTINGS_TABS, paths } from '../routes.ts';
import { AutoSummaryTab } from './auto-summary-tab.tsx';
import { BoardsTab } from './boards-tab.tsx';
import { LabelsTab } from './labels-tab.tsx';
import { McpTab } from './mcp-tab.tsx';
import { MembersTab } from './members-tab.tsx';

/** **Settings**: Boards and columns, Labels, Members, Auto-Summary, MCP Connection. */
export default function SettingsPage() {
  const project = useProject();
  const { tab = 'boards' } = useParams();
  const current = SETTINGS_TABS.find((t) => t.id === tab);
  useTitle(current ? `${current.label} · Settings` : 'Settings', `${project.key} · Switchboard Tickets`);
  const settings = useResource((signal) => project.api.settings(signal), [project.key]);
  useLiveChanges({ changes: (events) => events.some((e) => e.kind === 'project') && settings.reload(), resync: settings.reload });
  if (!current) return <Navigate to={paths.settings(project.key)} replace />;

  const changed = () => {
    settings.reload();
    project.reloadMeta();
  };
  let panel: ReactNode;
  if (tab === 'mcp') panel = <McpTab />;
  else if (tab === 'labels') panel = <LabelsTab />;
  else if (tab === 'members') panel = <MembersTab />;
  else if (settings.error) panel = <ErrorState error={settings.error} onRetry={settings.reload} />;
  else if (!settings.data) panel = <Loading />;
  else if (tab === 'boards') panel = <BoardsTab settings={settings.data} onChanged={changed} />;
  else panel = <AutoSummaryTab settings={settings.data} onChanged={changed} />;

  return (
    <>
      <PageHeader
        title="Settings"
        crumbs={
          <span>
            {project.name} ({project.key})
          </span>
        }
      />
      <nav className="subnav" aria-label="Settings">
        {SETTINGS_TABS.map((t) => (
          <NavLink key={t.id} to={paths.settings(project.key, t.id)}>
            {t.label}
          </NavLink>
        ))}
      </nav>
      <div className="settings-panel">{panel}</div>
    </>
  );
}

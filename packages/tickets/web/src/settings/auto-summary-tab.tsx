import { useState } from 'react';
import { FormError, useToast } from '@switchboard/web-kit';
import type { ProjectSettings } from '../api/types.ts';
import { useProject } from '../project-context.tsx';

/** **Auto-Summary**: whether every ticket gets a short AI summary, refreshed after changes. */
export function AutoSummaryTab({ settings, onChanged }: { settings: ProjectSettings; onChanged: () => void }) {
  const { api } = useProject();
  const notify = useToast();
  const [on, setOn] = useState(settings.project.settings.auto_summary);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const toggle = async (next: boolean) => {
    setBusy(true);
    setError('');
    setOn(next);
    try {
      await api.saveSettings({ settings: { auto_summary: next } });
      notify(`Auto-Summary ${next ? 'on' : 'off'}`);
      onChanged();
    } catch (reason) {
      setOn(!next);
      setError((reason as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="card">
      <div className="card-body stack">
        <FormError>{error}</FormError>
        <label className="switch-row">
          <input
            type="checkbox"
            // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox, whose checked state the browser exposes for the switch role; ARIA in HTML says not to repeat it in aria-checked.
            role="switch"
            checked={on}
            disabled={busy}
            onChange={(event) => void toggle(event.target.checked)}
            aria-describedby="auto-summary-help"
          />
          <span>
            <strong>Auto-Summary</strong> {on ? 'on' : 'off'}
          </span>
        </label>
        <p className="muted" id="auto-summary-help" style={{ margin: 0 }}>
          With Auto-Summary on, every ticket gets a short summary, refreshed in the background after each change (through the configured model, else an
          extractive summary made without one). Agents read the summaries in <code className="inline-code">get_all_tickets</code>, and{' '}
          <code className="inline-code">get_project_status</code> includes the README.
        </p>
      </div>
    </div>
  );
}

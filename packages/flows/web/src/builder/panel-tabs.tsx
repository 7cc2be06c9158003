// The right panel's tabs (Settings, Run, Versions, Schedules), moved between with the arrow keys.
import { useEffect, useState } from 'react';

/** One panel of the right side. */
export type Tab = 'settings' | 'run' | 'versions' | 'schedules';

const TABS: Array<[Tab, string]> = [
  ['settings', 'Settings'],
  ['run', 'Run'],
  ['versions', 'Versions'],
  ['schedules', 'Schedules'],
];

/** The tab list; each tab controls the tabpanel `panel-{id}`. */
export function PanelTabs({ tab, onTab }: { tab: Tab; onTab: (tab: Tab) => void }) {
  return (
    <div role="tablist" aria-label="Panels" className="tabs">
      {TABS.map(([id, label]) => (
        <button
          key={id}
          type="button"
          role="tab"
          id={`tab-${id}`}
          aria-selected={tab === id}
          aria-controls={`panel-${id}`}
          tabIndex={tab === id ? 0 : -1}
          className={tab === id ? 'active' : undefined}
          onClick={() => onTab(id)}
          onKeyDown={(event) => {
            const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
            if (step === 0) return;
            const order = TABS.map(([t]) => t);
            const next = order[(order.indexOf(id) + step + order.length) % order.length];
            onTab(next);
            document.getElementById(`tab-${next}`)?.focus();
          }}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** Whether the window matches a media query now, following its changes. */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const changed = () => setMatches(list.matches);
    changed();
    list.addEventListener('change', changed);
    return () => list.removeEventListener('change', changed);
  }, [query]);
  return matches;
}

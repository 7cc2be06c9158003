import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** One tab: its label and its panel. */
export interface TabItem {
  id: string;
  label: ReactNode;
  panel: ReactNode;
}

/**
 * Tabs as the ARIA pattern has them: a tablist named `label`, arrow keys
 * (and Home/End) move between tabs, the selected tab's panel is labelled by it.
 */
export function Tabs({ label, items, selected, onSelect }: { label: string; items: TabItem[]; selected: string; onSelect: (id: string) => void }) {
  const prefix = useId();
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const current = items.find((item) => item.id === selected) ?? items[0];
  if (!current) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.id === current.id);
    const target =
      event.key === 'ArrowRight'
        ? items[(index + 1) % items.length]
        : event.key === 'ArrowLeft'
          ? items[(index - 1 + items.length) % items.length]
          : event.key === 'Home'
            ? items[0]
            : event.key === 'End'
              ? items[items.length - 1]
              : undefined;
    if (!target) return;
    event.preventDefault();
    onSelect(target.id);
    refs.current.get(target.id)?.focus();
  };

  return (
    <div>
      <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {items.map((item) => (
          <button
            key={item.id}
            ref={(element) => {
              if (element) refs.current.set(item.id, element);
              else refs.current.delete(item.id);
            }}
            type="button"
            role="tab"
            id={`${prefix}-tab-${item.id}`}
            aria-selected={item.id === current.id}
            aria-controls={`${prefix}-panel-${item.id}`}
            tabIndex={item.id === current.id ? 0 : -1}
            onClick={() => onSelect(item.id)}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${prefix}-panel-${current.id}`} aria-labelledby={`${prefix}-tab-${current.id}`}>
        {current.panel}
      </div>
    </div>
  );
}

import { forwardRef, useEffect, useState } from 'react';
import { Button } from '@switchboard/web-kit';
import { PRIORITIES, TICKET_TYPES, type Label, type Member } from '../api/types.ts';
import type { BoardFilters } from './filters.ts';

/** The filters above the lanes: type, priority, label, assignee and text (the text field is what `/` focuses). */
export const FilterBar = forwardRef<
  HTMLInputElement,
  { filters: BoardFilters; labels: Label[]; members: Member[]; onChange: (filters: Partial<BoardFilters>) => void }
>(function FilterBar({ filters, labels, members, onChange }, textRef) {
  // The text is typed locally and written to the URL a moment later, so typing stays smooth on a large board.
  const [text, setText] = useState(filters.text);
  useEffect(() => setText(filters.text), [filters.text]);
  useEffect(() => {
    if (text === filters.text) return;
    const timer = setTimeout(() => onChange({ text }), 120);
    return () => clearTimeout(timer);
  }, [text, filters.text, onChange]);
  const any = Object.values(filters).some(Boolean);
  return (
    <search className="filter-bar" aria-label="Filter tickets">
      {/* A search box: its attributes are alike other search boxes', with its own label, state and keys. */}
      <input
        ref={textRef}
        className="input filter-text"
        type="search"
        aria-label="Filter"
        placeholder="Filter by key or title  ( / )"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') (event.target as HTMLInputElement).blur();
        }}
      />
      <FilterSelect label="Type" value={filters.type} onChange={(type) => onChange({ type })} options={TICKET_TYPES.map((t) => ({ value: t, label: t }))} />
      <FilterSelect
        label="Priority"
        value={filters.priority}
        onChange={(priority) => onChange({ priority })}
        options={PRIORITIES.map((p) => ({ value: p, label: p }))}
      />
      <FilterSelect
        label="Label"
        value={filters.label}
        onChange={(label) => onChange({ label })}
        options={labels.map((l) => ({ value: l.name, label: l.name }))}
      />
      <FilterSelect
        label="Assignee"
        value={filters.assignee}
        onChange={(assignee) => onChange({ assignee })}
        options={[{ value: 'none', label: 'Unassigned' }, ...members.map((m) => ({ value: m.email, label: m.name || m.email }))]}
      />
      {any ? (
        <Button small variant="ghost" onClick={() => onChange({ type: '', priority: '', label: '', assignee: '', text: '' })}>
          Clear filters
        </Button>
      ) : null}
    </search>
  );
});

function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange: (value: string) => void;
}) {
  return (
    <select className={`select filter-select ${value ? 'set' : ''}`} aria-label={label} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{label}: any</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {label}: {option.label}
        </option>
      ))}
    </select>
  );
}

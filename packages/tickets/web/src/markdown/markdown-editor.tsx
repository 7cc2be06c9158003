import { useId, useState } from 'react';
import { Tabs } from '@switchboard/web-kit';
import { MarkdownView } from './markdown-view.tsx';

/** A Markdown field with **Write** and **Preview** tabs; the text area is labelled `label`. */
export function MarkdownEditor({
  label,
  value,
  onChange,
  rows = 8,
  placeholder,
  autoFocus,
  onSubmitShortcut,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  placeholder?: string;
  autoFocus?: boolean;
  /** Ctrl/Cmd+Enter in the text area. */
  onSubmitShortcut?: () => void;
}) {
  const [mode, setMode] = useState('write');
  const id = useId();
  return (
    <div className="field md-editor">
      <label htmlFor={id}>{label}</label>
      <Tabs
        label={`${label} editor`}
        selected={mode}
        onSelect={setMode}
        items={[
          {
            id: 'write',
            label: 'Write',
            panel: (
              <textarea
                id={id}
                className="textarea"
                rows={rows}
                value={value}
                placeholder={placeholder}
                // biome-ignore lint/a11y/noAutofocus: only when the caller opens the editor at the user's request (Edit description).
                autoFocus={autoFocus}
                onChange={(event) => onChange(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && onSubmitShortcut) {
                    event.preventDefault();
                    onSubmitShortcut();
                  }
                }}
              />
            ),
          },
          { id: 'preview', label: 'Preview', panel: <MarkdownView source={value} empty="Nothing to preview." className="md-preview" /> },
        ]}
      />
      <div className="hint">Markdown: **bold**, _italic_, `code`, lists, links, tables.</div>
    </div>
  );
}

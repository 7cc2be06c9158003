import { memo, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { TaskToggle } from '../../../src/domain/task-list.ts';
import { renderMarkdown } from './markdown.ts';

/**
 * Rendered, sanitized Markdown; `empty` shows when there is no text. With `onToggleTask`, its task list checkboxes
 * can be checked (click or Space): each sends its one line as read; until the new text arrives the box shows the
 * new state, and it goes back when the change was refused. Focus stays on the box through the re-render.
 */
export const MarkdownView = memo(function MarkdownView({
  source,
  empty,
  className,
  onToggleTask,
}: {
  source: string | null | undefined;
  empty?: string;
  className?: string;
  /** Saves one toggle; rejects when it was refused (the caller shows why). */
  onToggleTask?: (toggle: TaskToggle) => Promise<unknown>;
}) {
  const toggles = onToggleTask !== undefined;
  const html = useMemo(() => (source?.trim() ? renderMarkdown(source, { tasks: toggles ? 'toggle' : 'read' }) : ''), [source, toggles]);
  const container = useRef<HTMLDivElement>(null);
  const latest = useRef({ source, onToggleTask });
  latest.current = { source, onToggleTask };
  // The box to focus again once the HTML is replaced (its place among the task items).
  const refocus = useRef<string | null>(null);

  useLayoutEffect(() => {
    const task = refocus.current;
    if (task === null || !html) return;
    refocus.current = null;
    container.current?.querySelector<HTMLInputElement>(`input[data-task="${task}"]`)?.focus();
  }, [html]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: html decides whether the container exists (an empty text renders the empty state without it), so the listener is attached again when it changes.
  useEffect(() => {
    const element = container.current;
    if (!element || !toggles) return;
    const onChange = (event: Event) => {
      const box = event.target as HTMLInputElement;
      if (box.tagName !== 'INPUT' || !box.dataset.line) return;
      const { source: text, onToggleTask: save } = latest.current;
      const line = Number(box.dataset.line);
      const expected = (text ?? '').split('\n')[line - 1];
      if (!save || expected === undefined) return;
      const checked = box.checked;
      // A second click while the first is on its way would send a line that no longer is the stored one.
      if (box.getAttribute('aria-busy') === 'true') {
        box.checked = !checked;
        return;
      }
      box.setAttribute('aria-busy', 'true');
      if (document.activeElement === box || box.matches(':focus-visible')) refocus.current = box.dataset.task ?? null;
      save({ line, expected: expected.replace(/\r$/, ''), checked }).then(
        () => box.removeAttribute('aria-busy'),
        () => {
          box.removeAttribute('aria-busy');
          box.checked = !checked;
        },
      );
    };
    element.addEventListener('change', onChange);
    return () => element.removeEventListener('change', onChange);
  }, [toggles, html]);

  if (!html) return <div className={`markdown empty faint ${className ?? ''}`}>{empty ?? 'Nothing here yet.'}</div>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown's HTML is sanitized by DOMPurify, links and images through isSafeUrl, inputs only the renderer's checkboxes (markdown.ts).
  return <div ref={container} className={`markdown ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
});

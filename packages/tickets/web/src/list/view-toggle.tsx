import { useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { queryWithView, viewFromQuery, type BoardPageView } from './list-rows.ts';

// The board page reads the view where it finds the toggle.
export { viewFromQuery } from './list-rows.ts';

const VIEWS: ReadonlyArray<{ view: BoardPageView; label: string }> = [
  { view: 'board', label: 'Board' },
  { view: 'list', label: 'List' },
];

/**
 * **Board** / **List**: a segmented control (a radio group: one is chosen, the arrow keys move between them)
 * that writes the view into the URL, so a reload or a link keeps it.
 */
export function ViewToggle() {
  const [query, setQuery] = useSearchParams();
  const current = viewFromQuery(query);
  const refs = useRef(new Map<BoardPageView, HTMLButtonElement>());
  const choose = (view: BoardPageView) => setQuery((latest) => queryWithView(latest, view));
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key)) return;
    event.preventDefault();
    const next = current === 'board' ? 'list' : 'board';
    choose(next);
    refs.current.get(next)?.focus();
  };
  return (
    <div className="view-toggle" role="radiogroup" aria-label="View" onKeyDown={onKeyDown}>
      {VIEWS.map(({ view, label }) => (
        // biome-ignore lint/a11y/useSemanticElements: a segmented control's segment: a button that is a radio (an input type=radio would need a label and hiding to look like this).
        <button
          key={view}
          ref={(element) => {
            if (element) refs.current.set(view, element);
            else refs.current.delete(view);
          }}
          type="button"
          role="radio"
          aria-checked={view === current}
          tabIndex={view === current ? 0 : -1}
          className={view === current ? 'chosen' : ''}
          onClick={() => choose(view)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

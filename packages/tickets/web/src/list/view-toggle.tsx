import { useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The board page's two views of the same tickets. */
export type BoardPageView = 'board' | 'list';

/** The query parameter of the view: `view=list`; the board is the default and leaves it out. */
const VIEW_PARAM = 'view';

/** The view a URL query asks for. */
export function viewFromQuery(query: URLSearchParams): BoardPageView {
  return query.get(VIEW_PARAM) === 'list' ? 'list' : 'board';
}

/** The query with `view` written into it; the filters, the board and the sort stay, so a switch keeps them. */
export function queryWithView(query: URLSearchParams, view: BoardPageView): URLSearchParams {
  const next = new URLSearchParams(query);
  if (view === 'list') next.set(VIEW_PARAM, 'list');
  else next.delete(VIEW_PARAM);
  return next;
}

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

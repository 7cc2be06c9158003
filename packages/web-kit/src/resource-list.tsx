import { useState, type ReactNode } from 'react';
import { useConfirm } from './confirm.tsx';
import { Button } from './forms.tsx';
import { FormDialog, type Form } from './record-form.tsx';
import { ResourceTable, type RowAction, type TableSpec } from './resource-table.tsx';
import { RevealOnceDialog } from './reveal-once.tsx';
import { EmptyState, ErrorState, Loading } from './states.tsx';
import { listView } from './list-view.ts';

/** What a new item shows this once: a token in full, and how to use it. */
export interface Revealed {
  title: string;
  /** What it is ("token", "key"): the notice and the **Copy** button name it. */
  what: string;
  value: string;
  wide?: boolean;
  children?: ReactNode;
}

/** The **Create …** of a list: its form, and what the new item shows once (a token in full) or where it leads. */
export interface CreateSpec<R> {
  /** The button that opens the form, in the header and in the empty state; the form's title unless it has one. */
  label: string;
  form: Form<R>;
  /** The secret shown this once, if the answer has one. */
  reveal?(result: R): Revealed;
  /** After creating (open what was made). */
  after?(result: R): void;
}

/** What a list shows when it has nothing: a title, a line on what to do, and (`offerCreate`) the create button. */
export interface EmptySpec {
  title: string;
  children?: ReactNode;
  offerCreate?: boolean;
}

/** The list's rows as loaded: `useResource` gives this shape (data undefined while loading). */
export interface ListSource<T> {
  data: T[] | undefined;
  error?: Error | undefined;
  reload: () => void;
}

/** What a resource list shows in a dialog. */
type Open =
  | { kind: 'form'; spec: Form; title?: string; create?: CreateSpec<unknown> }
  | { kind: 'reveal'; props: Revealed }
  | { kind: 'dialog'; render: (close: () => void) => ReactNode };

/** What every resource list says: what is listed, where its rows come from, how items are made, and what an empty list says. */
interface ListCommon<T, R> {
  /** What is listed, in the plural ("tokens"): the pager is named `Pages of tokens`. */
  noun: string;
  create?: CreateSpec<R>;
  /** Without it an empty list is shown as any other (an empty table). */
  empty?: EmptySpec;
  /** What stands above the list; it gets the create button to place. */
  header?: (createButton: ReactNode) => ReactNode;
  loadingLabel?: string;
  /** After any write (create, edit, confirmed action); by default the source is read again. */
  onChanged?: () => void;
  /** A search box above the list: rows are kept whose `text` holds every word typed. */
  search?: { label: string; placeholder?: string; text: (row: T) => string };
  /** More controls beside the search box (an import button). */
  tools?: ReactNode;
}

/** Props of a resource list: what is listed and how: as a table (`columns`…), or by the page's own `view` of the rows (a list beside a detail). */
export type ResourceListProps<T, R> = ListCommon<T, R> & { source: ListSource<T> } & (
    | (TableSpec<T> & { view?: undefined })
    | { view: (rows: T[]) => ReactNode }
  );

/**
 * A resource list page's body, from its declaration: the table with its
 * columns and row actions, a page at a time (or the page's own view of the
 * rows); the loading, error and empty states; the create and edit dialogs
 * with their fields; the secret shown once; and the confirmations.
 */
export function ResourceList<T, R = unknown>(props: ResourceListProps<T, R>) {
  const { source, create, empty } = props;
  const [open, setOpen] = useState<Open | undefined>(undefined);
  const [query, setQuery] = useState('');
  const changed = props.onChanged ?? source.reload;
  const confirmer = useConfirm<{ action: RowAction<T>; row: T }>({
    title: ({ action, row }) => action.confirm!.title(row),
    message: ({ action, row }) => action.confirm!.message(row),
    confirmLabel: ({ action, row }) => {
      const label = action.confirm!.confirmLabel;
      return typeof label === 'function' ? label(row) : label;
    },
    run: ({ action, row }) => action.confirm!.run(row),
    done: ({ action, row }) => action.confirm!.done?.(row) ?? '',
    after: ({ action, row }) => {
      changed();
      action.confirm!.after?.(row);
    },
  });

  // The list holds the answer as unknown and hands it back only to the same spec's reveal and after.
  const createSpec = create as CreateSpec<unknown> | undefined;
  const openCreate = createSpec ? () => setOpen({ kind: 'form', spec: createSpec.form, title: createSpec.label, create: createSpec }) : undefined;
  const createButton = () =>
    create ? (
      <Button variant="primary" onClick={openCreate}>
        {create.label}
      </Button>
    ) : null;
  const act = (action: RowAction<T>, row: T) => {
    if (action.confirm) confirmer.ask({ action, row });
    else if (action.form) setOpen({ kind: 'form', spec: action.form(row) });
    else if (action.dialog) {
      const dialog = action.dialog;
      setOpen({ kind: 'dialog', render: (close) => dialog(row, close) });
    } else action.onClick?.(row);
  };
  const saved = (result: unknown) => {
    if (open?.kind !== 'form') return;
    const shown = open.create?.reveal?.(result);
    setOpen(shown ? { kind: 'reveal', props: shown } : undefined);
    changed();
    open.create?.after?.(result);
  };

  const rows = source.data;
  let body: ReactNode;
  if (source.error) body = <ErrorState error={source.error} onRetry={source.reload} />;
  else if (!rows) body = <Loading label={props.loadingLabel} />;
  else if (rows.length === 0 && empty) {
    body = (
      <div className="card">
        <EmptyState title={empty.title} action={empty.offerCreate ? createButton() : undefined}>
          {empty.children}
        </EmptyState>
      </div>
    );
  } else {
    const found = props.search && query.trim() ? listView(rows, { search: query, text: props.search.text }) : rows;
    const list =
      found.length === 0 && rows.length > 0 ? (
        <div className="card">
          <EmptyState title={`No ${props.noun} match “${query.trim()}”`}>Try other words, or clear the search.</EmptyState>
        </div>
      ) : props.view ? (
        props.view(found)
      ) : (
        <ResourceTable spec={props} rows={found} noun={props.noun} act={act} />
      );
    body =
      props.search || props.tools ? (
        <>
          <div className="list-tools">
            {props.search ? (
              <input
                type="search"
                className="input list-search"
                aria-label={props.search.label}
                placeholder={props.search.placeholder ?? 'Search'}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
            ) : null}
            {props.tools}
          </div>
          {list}
        </>
      ) : (
        list
      );
  }

  return (
    <>
      {props.header?.(createButton())}
      {body}
      {/* A create dialog follows the current create form: choices it offers that arrive after it opened show up in it. */}
      {open?.kind === 'form' ? (
        <FormDialog spec={open.create && createSpec ? createSpec.form : open.spec} title={open.title} onClose={() => setOpen(undefined)} onDone={saved} />
      ) : null}
      {open?.kind === 'reveal' ? <RevealOnceDialog {...open.props} onClose={() => setOpen(undefined)} /> : null}
      {open?.kind === 'dialog' ? open.render(() => setOpen(undefined)) : null}
      {confirmer.dialog}
    </>
  );
}

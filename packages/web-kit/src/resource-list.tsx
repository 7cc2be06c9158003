import { useState, type ReactNode } from 'react';
import { useConfirm, type ConfirmSpec } from './confirm.tsx';
import { dateTime, timeAgo } from './format.ts';
import { Button, type ButtonVariant } from './forms.tsx';
import { pageSlice, pageStatus } from './paging.ts';
import { FormDialog, type Form } from './record-form.tsx';
import { RevealOnceDialog } from './reveal-once.tsx';
import { EmptyState, ErrorState, Loading } from './states.tsx';

/** A column of a resource list: its header and what each row shows in it. */
export interface Column<T> {
  header: string;
  /** The header is for screen readers only (a column of links). */
  quietHeader?: boolean;
  /** Numbers: right-aligned, tabular figures. */
  numeric?: boolean;
  /** Classes of the column's cells (`cell-name`, `mono`…). */
  className?: string;
  /** A cell's tooltip. */
  title?: (row: T) => string | undefined;
  /** What the cell shows; or, for a column of when something happened, `time`. */
  cell?: (row: T) => ReactNode;
  /** When it happened: the cell says "3 minutes ago" with the date and time as its tooltip, or `never` (faint). */
  time?: (row: T) => string | null | undefined;
  /** What a `time` cell says when it has not happened; "Never" unless said. */
  never?: string;
}

/** A cell's content and tooltip. */
function cellOf<T>(column: Column<T>, row: T): { content: ReactNode; title: string | undefined } {
  if (!column.time) return { content: column.cell?.(row), title: column.title?.(row) };
  const when = column.time(row);
  return when ? { content: timeAgo(when), title: dateTime(when) } : { content: <span className="faint">{column.never ?? 'Never'}</span>, title: undefined };
}

/** What a dialog-opening row action shows: a dialog of its own, drawn by the page. */
type DialogOf<T> = (row: T, close: () => void) => ReactNode;

/**
 * A button at the end of each row, named for the row (`Revoke website`), that
 * does one thing: `onClick`, a confirmed action (`confirm`), an edit form
 * (`form`) or a dialog of the page's own (`dialog`).
 */
export interface RowAction<T> {
  /** The button's text (**Revoke**, **Edit**, `←`). */
  label: ReactNode;
  /** Its accessible name for the row: `Revoke ${row.name}`. */
  name: (row: T) => string;
  variant?: ButtonVariant;
  title?: (row: T) => string | undefined;
  /** Whether the row has the action (a revoked token has no **Revoke**). */
  shown?: (row: T) => boolean;
  /** Shown in its place when it is not. */
  instead?: (row: T) => ReactNode;
  disabled?: (row: T) => boolean;
  onClick?: (row: T) => void;
  confirm?: ConfirmSpec<T>;
  /** The row's edit form (declared with `form()`). */
  form?: (row: T) => Form;
  dialog?: DialogOf<T>;
}

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
  /** The button that opens the form, in the header and in the empty state. */
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
type Open = { kind: 'form'; spec: Form; create?: CreateSpec<unknown> } | { kind: 'reveal'; props: Revealed } | { kind: 'dialog'; render: (close: () => void) => ReactNode };

/** Props of a resource list: what is listed and how. */
export interface ResourceListProps<T, R> {
  /** What is listed, in the plural ("tokens"): the pager is named `Pages of tokens`. */
  noun: string;
  source: ListSource<T>;
  columns: Array<Column<T>>;
  rowKey: (row: T) => string;
  rowClassName?: (row: T) => string | undefined;
  actions?: Array<RowAction<T>>;
  create?: CreateSpec<R>;
  /** Without it an empty list is an empty table. */
  empty?: EmptySpec;
  /** What stands above the list; it gets the create button to place. */
  header?: (createButton: ReactNode) => ReactNode;
  /** Rows a page; the pager shows when there are more. */
  pageSize?: number;
  loadingLabel?: string;
  /** The table's caption, for screen readers. */
  caption?: string;
  /** Classes of the table; `bare` leaves out the framed wrapper (a table inside a card). */
  tableClassName?: string;
  bare?: boolean;
  /** After any write (create, edit, confirmed action); by default the source is read again. */
  onChanged?: () => void;
}

/**
 * A resource list page's body, from its declaration: the table with its
 * columns and row actions, a page at a time; the loading, error and empty
 * states; the create and edit dialogs with their fields; the secret shown
 * once; and the confirmations.
 */
export function ResourceList<T, R = unknown>(props: ResourceListProps<T, R>) {
  const { source, columns, actions = [], create, empty, pageSize = 50 } = props;
  const [open, setOpen] = useState<Open | undefined>(undefined);
  const [page, setPage] = useState(1);
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
  const openCreate = createSpec ? () => setOpen({ kind: 'form', spec: createSpec.form, create: createSpec }) : undefined;
  const createButton = (key?: string) =>
    create ? (
      <Button key={key} variant="primary" onClick={openCreate}>
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
    const slice = pageSlice(rows.length, page, pageSize);
    const table = (
      <table className={props.tableClassName ? `table ${props.tableClassName}` : 'table'}>
        {props.caption ? <caption className="sr-only">{props.caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} className={column.numeric ? 'num' : undefined}>
                {column.quietHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
            {actions.length > 0 ? (
              <th>
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.slice(slice.start, slice.end).map((row) => (
            <tr key={props.rowKey(row)} className={props.rowClassName?.(row)}>
              {columns.map((column) => {
                const { content, title } = cellOf(column, row);
                return (
                  <td key={column.header} className={[column.numeric ? 'num' : '', column.className ?? ''].filter(Boolean).join(' ') || undefined} title={title}>
                    {content}
                  </td>
                );
              })}
              {actions.length > 0 ? <td className="actions-cell">{actions.map((action, index) => actionButton(action, row, index, act))}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    );
    body = (
      <>
        {props.bare ? table : <div className="table-wrap">{table}</div>}
        {slice.pages > 1 ? (
          <Pager
            label={`Pages of ${props.noun}`}
            status={pageStatus(slice, rows.length)}
            previous={slice.page > 1 ? () => setPage(slice.page - 1) : undefined}
            next={slice.page < slice.pages ? () => setPage(slice.page + 1) : undefined}
          />
        ) : null}
      </>
    );
  }

  return (
    <>
      {props.header?.(createButton())}
      {body}
      {open?.kind === 'form' ? <FormDialog spec={open.spec} onClose={() => setOpen(undefined)} onDone={saved} /> : null}
      {open?.kind === 'reveal' ? <RevealOnceDialog {...open.props} onClose={() => setOpen(undefined)} /> : null}
      {open?.kind === 'dialog' ? open.render(() => setOpen(undefined)) : null}
      {confirmer.dialog}
    </>
  );
}

/** One row action's button, or what stands in its place. */
function actionButton<T>(action: RowAction<T>, row: T, index: number, act: (action: RowAction<T>, row: T) => void): ReactNode {
  if (action.shown && !action.shown(row)) return action.instead ? <span key={index}>{action.instead(row)}</span> : null;
  return (
    <Button key={index} small variant={action.variant} aria-label={action.name(row)} title={action.title?.(row)} disabled={action.disabled?.(row)} onClick={() => act(action, row)}>
      {action.label}
    </Button>
  );
}

/** **← Previous** and **Next →** around where the list is; a missing handler disables its button. */
export function Pager({ label, status, previous, next }: { label: string; status: ReactNode; previous?: () => void; next?: () => void }) {
  return (
    <nav className="pager" aria-label={label}>
      <Button disabled={!previous} onClick={previous}>
        ← Previous
      </Button>
      <span className="muted">{status}</span>
      <Button disabled={!next} onClick={next}>
        Next →
      </Button>
    </nav>
  );
}

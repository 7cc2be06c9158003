import { useState, type ReactNode } from 'react';
import type { ConfirmSpec } from './confirm.tsx';
import { dateTime, timeAgo } from './format.ts';
import { Button, type ButtonVariant } from './forms.tsx';
import { pageSlice, pageStatus } from './paging.ts';
import { listView, type SortDirection } from './list-view.ts';
import type { Form } from './record-form.tsx';

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
  /** The column sorts the rows by this key when its header is clicked (a `time` column sorts by its time unless said). */
  sort?: (row: T) => string | number | null | undefined;
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

/** A list shown as a table: its columns, its row actions, and how many rows a page holds. */
export interface TableSpec<T> {
  columns: Array<Column<T>>;
  rowKey: (row: T) => string;
  rowClassName?: (row: T) => string | undefined;
  actions?: Array<RowAction<T>>;
  /** Rows a page; the pager shows when there are more. */
  pageSize?: number;
  /** The table's caption, for screen readers. */
  caption?: string;
  /** The column (by header) the rows are sorted by at first, and how. */
  defaultSort?: { header: string; direction: SortDirection };
  /** Classes of the table; `bare` leaves out the framed wrapper (a table inside a card). */
  tableClassName?: string;
  bare?: boolean;
}

/**
 * The rows as a table, a page at a time: a header per column (and a quiet
 * **Actions** one), a row per item with its action buttons, and the pager
 * (`Pages of {noun}`) when there is more than a page.
 */
export function ResourceTable<T>({ spec, rows, noun, act }: { spec: TableSpec<T>; rows: T[]; noun: string; act: (action: RowAction<T>, row: T) => void }) {
  const [page, setPage] = useState(1);
  const { columns, actions = [] } = spec;
  const [sorted, setSorted] = useState(spec.defaultSort);
  const sortColumn = columns.find((c) => c.header === sorted?.header);
  const sortKey = sortColumn ? (sortColumn.sort ?? sortColumn.time) : undefined;
  const ordered = sortKey && sorted ? listView(rows, { sort: { key: sortKey, direction: sorted.direction } }) : rows;
  const slice = pageSlice(ordered.length, page, spec.pageSize ?? 50);
  const sortBy = (header: string) =>
    setSorted((current) => ({ header, direction: current?.header === header && current.direction === 'ascending' ? 'descending' : 'ascending' }));
  const table = (
    <table className={spec.tableClassName ? `table ${spec.tableClassName}` : 'table'}>
      {spec.caption ? <caption className="sr-only">{spec.caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} className={column.numeric ? 'num' : undefined} aria-sort={sorted?.header === column.header ? sorted.direction : undefined}>
              {column.quietHeader ? (
                <span className="sr-only">{column.header}</span>
              ) : column.sort || column.time ? (
                <button type="button" className="sort-button" onClick={() => sortBy(column.header)} title={`Sort by ${column.header.toLowerCase()}`}>
                  {column.header}
                  <span aria-hidden="true" className="sort-mark">
                    {sorted?.header === column.header ? (sorted.direction === 'ascending' ? ' ▲' : ' ▼') : ''}
                  </span>
                </button>
              ) : (
                column.header
              )}
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
        {ordered.slice(slice.start, slice.end).map((row) => (
          <tr key={spec.rowKey(row)} className={spec.rowClassName?.(row)}>
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
  return (
    <>
      {spec.bare ? table : <div className="table-wrap">{table}</div>}
      {slice.pages > 1 ? (
        <Pager
          label={`Pages of ${noun}`}
          status={pageStatus(slice, ordered.length)}
          previous={slice.page > 1 ? () => setPage(slice.page - 1) : undefined}
          next={slice.page < slice.pages ? () => setPage(slice.page + 1) : undefined}
        />
      ) : null}
    </>
  );
}

/** One row action's button, or what stands in its place. */
function actionButton<T>(action: RowAction<T>, row: T, index: number, act: (action: RowAction<T>, row: T) => void): ReactNode {
  if (action.shown && !action.shown(row)) return action.instead ? <span key={index}>{action.instead(row)}</span> : null;
  return (
    <Button
      key={index}
      small
      variant={action.variant}
      aria-label={action.name(row)}
      title={action.title?.(row)}
      disabled={action.disabled?.(row)}
      onClick={() => act(action, row)}
    >
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

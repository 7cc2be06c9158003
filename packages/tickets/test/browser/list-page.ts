// The List view as the browser tests see it: the view toggle, the table's headers and rows, found by role and name.
import type { Locator, Page } from 'playwright-core';

/** The List view of a signed-in page. */
export class ListScreen {
  constructor(readonly page: Page) {}

  /** **Board** or **List** in the view toggle. */
  viewChoice(name: 'Board' | 'List'): Locator {
    return this.page.getByRole('radiogroup', { name: 'View' }).getByRole('radio', { name, exact: true });
  }

  /** The table of tickets. */
  table(): Locator {
    return this.page.getByRole('table', { name: 'Tickets' });
  }

  /** A column's header (its button sorts). */
  header(name: string): Locator {
    return this.table().getByRole('columnheader', { name: new RegExp(`^${name}`) });
  }

  /** The row of a ticket. */
  row(key: string): Locator {
    return this.table().getByRole('row', { name: new RegExp(`^${key} `) });
  }

  /** The keys of the rows in the page, top to bottom. */
  async keys(): Promise<string[]> {
    return this.table()
      .locator('tbody [role="row"][data-key]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key') ?? ''));
  }
}

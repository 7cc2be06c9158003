// The board as the browser tests see it: lanes, cards and the ticket panel, found by role and name as a person finds them.
import type { Locator, Page } from 'playwright-core';

/** The board screen of a signed-in page. */
export class BoardScreen {
  constructor(readonly page: Page) {}

  /** A lane (a region named by its column). */
  lane(column: string): Locator {
    return this.page.getByRole('region', { name: column, exact: true });
  }

  /** The card of a ticket, anywhere on the board or in `column`. */
  card(key: string, column?: string): Locator {
    const scope = column ? this.lane(column) : this.page.getByRole('main');
    return scope.getByRole('button', { name: new RegExp(`^${key} `) });
  }

  /** The lane heading's count. */
  async count(column: string): Promise<string> {
    return (await this.lane(column).getByRole('heading').innerText()).replace(column, '').trim();
  }

  /** The ticket panel of `key`. */
  panel(key: string): Locator {
    return this.page.getByRole('complementary', { name: `Ticket ${key}` });
  }

  /** The live indicator's text once the stream is up. */
  async waitLive(): Promise<void> {
    await this.page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor({ timeout: 15_000 });
  }

  /** Drags a card with the mouse, in small steps as a hand does, onto the middle of a lane. */
  async drag(key: string, toColumn: string): Promise<void> {
    // A hand drags a card it sees: one the filter's debounce (120 ms) is still bringing back has no box yet.
    await this.card(key).waitFor();
    const from = await this.card(key).boundingBox();
    const to = await this.lane(toColumn).boundingBox();
    if (!from || !to) throw new Error(`cannot drag ${key} to ${toColumn}`);
    const mouse = this.page.mouse;
    await mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await mouse.down();
    await mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 5, { steps: 3 });
    await mouse.move(to.x + to.width / 2, to.y + 160, { steps: 12 });
    await mouse.up();
  }
}

/** The keys of a lane's cards, top first, as they are shown. */
export async function laneKeys(board: BoardScreen, column: string): Promise<string[]> {
  const texts = await board.lane(column).getByRole('listitem').allInnerTexts();
  return texts.map((text) => /^\S+-\d+/.exec(text.trim())?.[0] ?? text);
}

/**
 * Picks a card up with the mouse and holds it over the upper (`above`) or lower half of another card, in small
 * steps as a hand does; answers the drop (the mouse released), so a test can look at the board mid-drag first.
 */
export async function holdOver(board: BoardScreen, key: string, target: string, half: 'above' | 'below'): Promise<() => Promise<void>> {
  const from = await board.card(key).boundingBox();
  const to = await board.card(target).boundingBox();
  if (!from || !to) throw new Error(`cannot drag ${key} to ${target}`);
  const mouse = board.page.mouse;
  await mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await mouse.down();
  await mouse.move(from.x + from.width / 2 + 4, from.y + from.height / 2 + 6, { steps: 3 });
  await mouse.move(to.x + to.width / 2, to.y + to.height * (half === 'above' ? 0.25 : 0.75), { steps: 12 });
  return () => mouse.up();
}

/** Milliseconds from `answeredAt` until `locator` is visible (0 when it was visible first); `visible` is the locator's waitFor, started before the call. */
export async function latencyAfter(visible: Promise<number>, answeredAt: number): Promise<number> {
  return Math.max(0, (await visible) - answeredAt);
}

/** Starts waiting for a locator and resolves with the moment it became visible. */
export function whenVisible(locator: Locator, timeout = 5000): Promise<number> {
  return locator.waitFor({ state: 'visible', timeout }).then(() => performance.now());
}

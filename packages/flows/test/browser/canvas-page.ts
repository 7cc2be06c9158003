// A page object for the canvas builder: controls found by role and visible name, nodes by `.react-flow__node`
// (web.md names that element), and what a person does with the mouse and the keyboard.
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** The canvas builder of one flow. */
export class CanvasPage {
  constructor(readonly page: Page) {}

  /** Opens `/orgs/{org}/flows/{slug}` and waits until the canvas has drawn its nodes. */
  async open(base: string, org: string, slug: string): Promise<this> {
    await this.page.goto(`${base}/orgs/${org}/flows/${slug}`);
    await this.ready();
    return this;
  }

  /** Waits for the canvas to be drawn and measured. */
  async ready(): Promise<void> {
    await this.page.getByRole('region', { name: 'Canvas' }).and(this.page.locator('[aria-busy="false"]')).waitFor();
  }

  /** A node's element on the canvas. */
  node(id: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${id}"]`);
  }

  /** Every node element. */
  nodes(): Locator {
    return this.page.locator('.react-flow__node');
  }

  /** The ids of the nodes on the canvas, in the order drawn. */
  async nodeIds(): Promise<string[]> {
    return this.nodes().evaluateAll((elements) => elements.map((e) => e.getAttribute('data-id') ?? ''));
  }

  /** A handle of a node, by its tooltip (`Output of llm…`, `Input of output`, `Tools of llm…`, `Case 1 of route…`, `Else of route…`). */
  handle(id: string, title: RegExp): Locator {
    return this.node(id).getByTitle(title);
  }

  /** The palette entry of a node type (Input, LLM, …). */
  paletteEntry(name: string): Locator {
    return this.page.getByRole('region', { name: 'Palette' }).getByRole('button', { name, exact: true });
  }

  /** Drags a palette entry onto the canvas at `at` (pixels from the canvas's top left). */
  async dragFromPalette(name: string, at: { x: number; y: number }): Promise<void> {
    await this.paletteEntry(name).dragTo(this.page.getByRole('region', { name: 'Canvas' }), { targetPosition: at });
  }

  /** Wires two handles with the mouse, as a person drags a connection. */
  async wire(from: Locator, to: Locator): Promise<void> {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
    await this.page.mouse.up();
  }

  /** The edge from one node to another (React Flow names each edge `Edge from A to B`). */
  edge(from: string, to: string): Locator {
    return this.page.getByRole('group', { name: `Edge from ${from} to ${to}`, exact: true });
  }

  /** The toolbar's save state (`Saved version N`, `Unsaved changes`, …). */
  saveState(): Locator {
    return this.page.getByRole('region', { name: 'Flow toolbar' }).getByRole('status');
  }

  /** Clicks **Save** and waits for the toolbar to say how it went. */
  async save(): Promise<string> {
    await this.page.getByRole('button', { name: 'Save', exact: true }).click();
    return this.saved();
  }

  /** Waits for the toolbar to say how a save went, and answers what it says. */
  async saved(): Promise<string> {
    let text = '';
    await expect.poll(async () => (text = (await this.saveState().innerText()).trim()), { timeout: 10_000 }).toMatch(/^(Saved version|Not saved)/);
    return text;
  }

  /** The Problems list. */
  problems(): Locator {
    return this.page.getByRole('list', { name: 'Problems' });
  }

  /** The texts of the Problems list's items. */
  async problemTexts(): Promise<string[]> {
    return (await this.problems().getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Opens a tab of the right panel (Settings, Run, Versions). */
  async tab(name: 'Settings' | 'Run' | 'Versions'): Promise<Locator> {
    await this.page.getByRole('tab', { name, exact: true }).click();
    return this.page.getByRole('tabpanel', { name });
  }
}

// Says that the canvas shows the user's draft rather than a saved version, with Discard.
import { Button, dateTime } from '@switchboard/web-kit';

/** What the builder opened on: the user's draft, when it had one. */
export interface RestoredDraft {
  savedAt: string;
  /** The version the draft was edited from, when it is older than the flow's latest. */
  behind?: { base: number; latest: number };
}

/** The bar under the toolbar while a restored draft is unsaved: "Unsaved changes from TIME", **Discard**. */
export function DraftBar({ draft, busy, onDiscard }: { draft: RestoredDraft; busy: boolean; onDiscard: () => void }) {
  return (
    <section className="draft-bar" aria-label="Draft">
      <span>
        Unsaved changes from <time dateTime={draft.savedAt}>{dateTime(draft.savedAt)}</time>
        {draft.behind ? `, made on version ${draft.behind.base} (the flow is at version ${draft.behind.latest} now)` : ''}: your draft, not yet a version.
      </span>
      <Button small onClick={onDiscard} busy={busy} title="Forget the draft and show the latest saved version">
        Discard
      </Button>
    </section>
  );
}

// Keeps the open flow's canvas as the user's draft while the builder is open, and once more as it closes.
import { useEffect, useRef, useState } from 'react';
import type { BuilderApi } from '../api/builder-api.ts';
import { DraftAutosave, type DraftState } from './draft-autosave.ts';
import type { BuilderStore } from './store.ts';

/**
 * Starts the draft autosave of `store`: every edit is on the service within
 * a second or two; leaving the page (another page of the app, a reload, a
 * closed tab, a hidden tab that the browser may discard) sends what is left.
 * Answers the autosave (for Discard) and what it last did.
 */
export function useDraftAutosave(store: BuilderStore, client: BuilderApi, slug: string, exists: boolean): { autosave: DraftAutosave; state: DraftState } {
  const [state, setState] = useState<DraftState>({ kind: 'none' });
  const ref = useRef<DraftAutosave | undefined>(undefined);
  ref.current ??= new DraftAutosave(
    store,
    { put: (definition, base, leaving) => client.putDraft(slug, definition, base, leaving), remove: () => client.deleteDraft(slug) },
    { exists },
  );
  const autosave = ref.current;
  useEffect(() => {
    autosave.onState = setState;
    const stop = autosave.start();
    const leaving = () => void autosave.flush(true);
    const hidden = () => {
      if (document.visibilityState === 'hidden') leaving();
    };
    window.addEventListener('pagehide', leaving);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', leaving);
      document.removeEventListener('visibilitychange', hidden);
      stop();
      // Another page of the app: the document stays, so an ordinary request finishes. The builder opened again
      // (Back) reads the draft once this is done, even while the store still waits for one before it.
      client.holdDraftReads(slug, autosave.flush());
    };
  }, [autosave, client, slug]);
  return { autosave, state };
}

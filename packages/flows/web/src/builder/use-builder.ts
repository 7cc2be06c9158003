// The React side of the builder's store: one store per open flow, read through selectors.
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { BuilderState, BuilderStore } from './store.ts';

/** The open flow's store. */
export const BuilderContext = createContext<BuilderStore | null>(null);

/** The open flow's store (inside the builder page). */
export function useBuilderStore(): BuilderStore {
  const store = useContext(BuilderContext);
  if (!store) throw new Error('useBuilderStore outside the builder');
  return store;
}

/**
 * A value of the builder's state; the component re-renders only when it
 * changes (by identity), so a selector must answer a stored object or a primitive.
 */
export function useBuilder<T>(selector: (state: BuilderState) => T): T {
  const store = useBuilderStore();
  return useSyncExternalStore(store.subscribe, () => selector(store.getState()));
}

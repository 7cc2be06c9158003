// The builder's keyboard shortcuts. Typing in a field keeps its own keys (undo, copy, delete) except Ctrl/Cmd+S.
import { useEffect, useRef } from 'react';

/** What the shortcuts do. */
export interface ShortcutActions {
  save: () => void;
  undo: () => void;
  redo: () => void;
  remove: () => void;
  copy: () => void;
  paste: () => void;
  selectAll: () => void;
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Installs the shortcuts while the builder is open. */
export function useShortcuts(actions: ShortcutActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.metaKey || event.ctrlKey;
      const key = event.key.toLowerCase();
      const act = latest.current;
      if (mod && key === 's') {
        event.preventDefault();
        act.save();
        return;
      }
      // Dialogs and fields keep their keys.
      if (isEditable(event.target) || (event.target instanceof Element && event.target.closest('[role="dialog"]'))) return;
      if (mod && key === 'z') {
        event.preventDefault();
        if (event.shiftKey) act.redo();
        else act.undo();
      } else if (mod && key === 'y') {
        event.preventDefault();
        act.redo();
      } else if (mod && key === 'c') {
        if (window.getSelection()?.toString()) return;
        act.copy();
      } else if (mod && key === 'v') {
        event.preventDefault();
        act.paste();
      } else if (mod && key === 'a') {
        event.preventDefault();
        act.selectAll();
      } else if (!mod && (event.key === 'Delete' || event.key === 'Backspace')) {
        event.preventDefault();
        act.remove();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

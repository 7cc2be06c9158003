import { useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './dialog.tsx';
import { useToast } from './toast.tsx';

/** An action confirmed in a dialog (revoke, delete, remove): what it says and what it does. */
export interface ConfirmSpec<T> {
  title: (target: T) => string;
  message: (target: T) => ReactNode;
  /** The confirming button, the same word as the button that asks (**Revoke**, **Delete**). */
  confirmLabel: string | ((target: T) => string);
  /** Does it; a rejection's message is shown as an error notice and the dialog stays open. */
  run: (target: T) => Promise<unknown>;
  /** The notice once done, if any. */
  done?: (target: T) => string;
  /** After it is done and the dialog closed (reload a list, leave a deleted page). */
  after?: (target: T) => void;
}

/** Asks before acting: `ask(target)` opens the confirmation, rendered where `dialog` is placed. */
export function useConfirm<T>(spec: ConfirmSpec<T>): { ask: (target: T) => void; dialog: ReactNode } {
  const [target, setTarget] = useState<{ value: T } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const notify = useToast();
  const latest = useRef(spec);
  latest.current = spec;
  const confirm = async (value: T) => {
    const current = latest.current;
    setBusy(true);
    try {
      await current.run(value);
    } catch (reason) {
      notify((reason as Error).message, 'error');
      setBusy(false);
      return;
    }
    const done = current.done?.(value);
    if (done) notify(done);
    setBusy(false);
    setTarget(undefined);
    current.after?.(value);
  };
  const dialog = target ? (
    <ConfirmDialog
      title={spec.title(target.value)}
      message={spec.message(target.value)}
      confirmLabel={typeof spec.confirmLabel === 'function' ? spec.confirmLabel(target.value) : spec.confirmLabel}
      busy={busy}
      onConfirm={() => void confirm(target.value)}
      onCancel={() => setTarget(undefined)}
    />
  ) : null;
  return { ask: (value: T) => setTarget({ value }), dialog };
}

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './forms.tsx';

/**
 * A modal dialog (role dialog, labelled by its title): Escape and the backdrop
 * close it, focus moves into it on open and back to where it was on close.
 * Its footer is `footer`, or **Cancel** (`closeLabel`) followed by `actions`.
 */
export function Dialog({
  title,
  onClose,
  children,
  footer,
  actions,
  closeLabel = 'Cancel',
  wide,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** The dialog's own buttons, after the one that closes it. */
  actions?: ReactNode;
  closeLabel?: string;
  wide?: boolean;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('input, textarea, select, button:not([data-dialog-close])');
    (first ?? ref.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        closeRef.current();
      }
      if (event.key === 'Tab' && ref.current) {
        // Keep Tab inside the dialog.
        const focusable = Array.from(
          ref.current.querySelectorAll<HTMLElement>('a[href], button:not(:disabled), input:not(:disabled), select, textarea, [tabindex]:not([tabindex="-1"])'),
        );
        if (focusable.length === 0) return;
        const [head, tail] = [focusable[0], focusable[focusable.length - 1]];
        if (event.shiftKey && document.activeElement === head) {
          event.preventDefault();
          tail.focus();
        } else if (!event.shiftKey && document.activeElement === tail) {
          event.preventDefault();
          head.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
    };
  }, []);

  const buttons =
    footer ??
    (actions !== undefined ? (
      <>
        <Button onClick={onClose} data-dialog-close>
          {closeLabel}
        </Button>
        {actions}
      </>
    ) : null);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a press on the backdrop is the pointer's way to close; the keyboard's is Escape (the listener above), and the dialog's own buttons close it too.
    <div className="dialog-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div className={`dialog ${wide ? 'wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref} tabIndex={-1}>
        <div className="dialog-header">
          <h2 id={titleId}>{title}</h2>
        </div>
        <div className="dialog-body">{children}</div>
        {buttons ? <div className="dialog-footer">{buttons}</div> : null}
      </div>
    </div>
  );
}

/** A confirmation: the confirming button carries `confirmLabel` (for example **Revoke**). */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
  danger = true,
}: {
  title: ReactNode;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  danger?: boolean;
}) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      actions={
        <Button variant={danger ? 'danger-solid' : 'primary'} onClick={onConfirm} busy={busy}>
          {confirmLabel}
        </Button>
      }
    >
      <div>{message}</div>
    </Dialog>
  );
}

import type { ReactNode } from 'react';
import { CopyButton } from './code-block.tsx';
import { Dialog } from './dialog.tsx';
import { Button } from './forms.tsx';

/**
 * A secret shown this once (a new token or key), in full, with **Copy**
 * (named `Copy {what}`) and what to do with it below; **Done** closes it, and
 * nothing keeps the value after that.
 */
export function RevealOnceDialog({
  title,
  what,
  value,
  wide,
  children,
  onClose,
}: {
  title: string;
  what: string;
  value: string;
  wide?: boolean;
  children?: ReactNode;
  onClose: () => void;
}) {
  return (
    <Dialog
      title={title}
      wide={wide}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="notice warning" role="note">
        Copy the {what} now. It is shown only this once: Switchboard keeps only a hash of it.
      </div>
      <div className="secret-row">
        <code className="secret">{value}</code>
        <CopyButton text={value} what={what} small={false} />
      </div>
      {children}
    </Dialog>
  );
}

// Warns before leaving a flow with unsaved changes: the browser's own prompt on reload or close, a dialog for links inside the app.
import { useEffect, useState } from 'react';
import type { NavigateFunction } from 'react-router-dom';
import { ConfirmDialog } from '@switchboard/web-kit';
import { useBuilderStore } from './use-builder.ts';

/** Mounted while the builder is open. */
export function LeaveGuard({ navigate }: { navigate: NavigateFunction }) {
  const store = useBuilderStore();
  const [leaving, setLeaving] = useState<string | undefined>(undefined);
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!store.getState().dirty) return;
      event.preventDefault();
      event.returnValue = '';
    };
    // Capture phase on the document: before React Router's own click handler on its links.
    const onClick = (event: MouseEvent) => {
      if (!store.getState().dirty || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.target === '_blank' || link.hasAttribute('download')) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return;
      event.preventDefault();
      event.stopPropagation();
      setLeaving(`${url.pathname}${url.search}${url.hash}`);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [store]);
  if (!leaving) return null;
  return (
    <ConfirmDialog
      title="Leave without saving?"
      message="The flow has unsaved changes. They are lost if you leave now."
      confirmLabel="Leave"
      onConfirm={() => {
        const to = leaving;
        setLeaving(undefined);
        navigate(to);
      }}
      onCancel={() => setLeaving(undefined)}
    />
  );
}

import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from './session.tsx';

/**
 * The signed-in person in the top bar: a button with their email that opens their menu: **Account** for
 * everyone, **People** for admins. Escape or a click elsewhere closes it.
 */
export function UserMenu() {
  const { session } = useSession();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const { user } = session;
  const close = () => setOpen(false);
  return (
    <div className="user-menu" ref={box}>
      <button
        type="button"
        className="btn ghost small user-menu-button"
        aria-expanded={open}
        aria-controls="user-menu-list"
        title={`${user.name} (${user.email})`}
        onClick={() => setOpen((was) => !was)}
      >
        <span className="user-menu-initial" aria-hidden="true">
          {(user.name.trim() || user.email).charAt(0).toUpperCase()}
        </span>
        <span className="truncate user-menu-email">{user.email}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <nav id="user-menu-list" className="user-menu-list" aria-label="Your account">
          <div className="user-menu-who">
            <strong className="truncate">{user.name}</strong>
            <span className="muted truncate">{user.role === 'admin' ? 'Admin' : 'Member'}</span>
          </div>
          <Link to="/account" onClick={close}>
            Account
          </Link>
          {user.role === 'admin' ? (
            <Link to="/people" onClick={close}>
              People
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

import { Suspense, createContext, lazy, useCallback, useContext, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError, api, setUnauthorizedHandler, type SessionUser } from './api.ts';
import { Button, FormError, TextField } from './forms.tsx';
import { Loading } from './states.tsx';

const InvitationPage = lazy(() => import('./invitation-page.tsx'));

/** What `GET /api/session` answers: the user, plus the service's own lists (organizations, projects). */
export type SessionInfo<Extra> = { user: SessionUser } & Extra;

interface SessionContextValue<Extra> {
  session: SessionInfo<Extra>;
  /** Reads the session again (after a membership change). */
  refresh: () => Promise<void>;
  /** Deletes the session on the server and shows the sign-in page. */
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue<unknown> | null>(null);

/** The signed-in session; only inside a SessionGate. */
export function useSession<Extra>(): SessionContextValue<Extra> {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionGate');
  return value as SessionContextValue<Extra>;
}

/**
 * Shows the sign-in form on `/login` and on any page without a session, and
 * an invitation link's page on `/invite/{token}`; renders `children` with
 * the session once signed in. A 401 from any later
 * request (the session expired or was signed out elsewhere) shows the form again.
 */
export function SessionGate<Extra>({ service, children }: { service: string; children: ReactNode }) {
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'signed-out' } | { status: 'error'; error: Error } | { status: 'signed-in'; session: SessionInfo<Extra> }
  >({
    status: 'loading',
  });
  const location = useLocation();
  const navigate = useNavigate();

  const load = useCallback(async () => {
    try {
      const session = await api<SessionInfo<Extra>>('/api/session', { allowUnauthorized: true });
      setState({ status: 'signed-in', session });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setState({ status: 'signed-out' });
      else setState({ status: 'error', error: error as Error });
    }
  }, []);

  useEffect(() => {
    void load();
    setUnauthorizedHandler(() => setState({ status: 'signed-out' }));
    return () => setUnauthorizedHandler(undefined);
  }, [load]);

  const signOut = useCallback(async () => {
    try {
      await api('/api/session', { method: 'DELETE', allowUnauthorized: true });
    } finally {
      setState({ status: 'signed-out' });
      // void: under BrowserRouter navigate() returns nothing; the promise its type allows is a data router's.
      void navigate('/login');
    }
  }, [navigate]);

  // An invitation link's page needs no session: it makes one, then goes on to the UI's home.
  const invited = /^\/invite\/([^/]+)\/?$/.exec(location.pathname);
  if (invited) {
    return (
      <Suspense fallback={<Loading />}>
        <InvitationPage
          service={service}
          token={invited[1]}
          onSignedIn={async () => {
            await load();
            void navigate('/', { replace: true });
          }}
        />
      </Suspense>
    );
  }
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') {
    return (
      <div className="login">
        <div className="card">
          <div className="card-body stack">
            <h1>{service}</h1>
            <FormError>{state.error.message}</FormError>
            <Button onClick={() => void load()}>Try again</Button>
          </div>
        </div>
      </div>
    );
  }
  if (state.status === 'signed-out') {
    return (
      <LoginForm
        service={service}
        onSignedIn={async () => {
          await load();
          if (location.pathname === '/login') goNext(navigate, new URLSearchParams(location.search).get('next'));
        }}
      />
    );
  }
  if (location.pathname === '/login') {
    const next = new URLSearchParams(location.search).get('next');
    // Signed in already: /login goes on to where the user was headed.
    queueMicrotask(() => goNext(navigate, next));
    return <Loading />;
  }
  return (
    <SessionContext.Provider value={{ session: state.session, refresh: load, signOut } as SessionContextValue<unknown>}>{children}</SessionContext.Provider>
  );
}

/**
 * Goes on to `next` after signing in: a page of this UI in place, a page the server renders (an OAuth client's
 * authorization, `/oauth/…`) by loading it; anything that is not a path of this origin goes to `/`.
 */
function goNext(navigate: ReturnType<typeof useNavigate>, next: string | null): void {
  const target = next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
  if (target.startsWith('/oauth/')) window.location.replace(target);
  else navigate(target, { replace: true });
}

/** The sign-in form: **Email**, **Password**, **Sign in**. */
function LoginForm({ service, onSignedIn }: { service: string; onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = `Sign in · ${service}`;
  }, [service]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await api('/api/session', { method: 'POST', body: { email, password }, allowUnauthorized: true });
      setPassword('');
      await onSignedIn();
    } catch (reason) {
      const failure = reason as ApiError;
      if (failure.status === 401) setError('Invalid email or password');
      // The service's message already says what happened and when to try again.
      else if (failure.status === 429) setError(failure.message || 'Too many failed sign-ins: try again in a minute');
      else setError(failure.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login">
      <div className="card">
        <form className="card-body stack" onSubmit={submit} noValidate>
          <div className="row">
            <span className="brand-mark" aria-hidden="true" />
            <div>
              <h1>Sign in</h1>
              <div className="muted">{service}</div>
            </div>
          </div>
          <FormError>{error}</FormError>
          <TextField label="Email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus />
          <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
          <Button type="submit" variant="primary" busy={busy}>
            Sign in
          </Button>
          <div className="faint" style={{ fontSize: 12 }}>
            Accounts are created by an administrator: <code className="inline-code">npx switchboard user create EMAIL</code>
          </div>
        </form>
      </div>
    </main>
  );
}

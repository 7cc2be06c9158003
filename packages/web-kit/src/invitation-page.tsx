import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from './api.ts';
import { Button, FormError, TextField } from './forms.tsx';
import { useAction, useResource } from './hooks.ts';
import { MIN_PASSWORD_LENGTH, newPasswordProblem, peopleApi } from './people-api.ts';
import { ErrorState, Loading } from './states.tsx';

/**
 * The page of an invitation link, `/invite/{token}` (no session needed): whom it is for, **Password** and
 * **Confirm password**, **Set password**, then signed in. A link that does not work (used, expired, mistyped)
 * says so, with the way to sign in.
 */
export default function InvitationPage({ service, token, onSignedIn }: { service: string; token: string; onSignedIn: () => Promise<void> }) {
  const invitation = useResource((signal) => peopleApi.invitation(token, signal), [token]);
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const saving = useAction();
  useEffect(() => {
    document.title = `Set your password · ${service}`;
  }, [service]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordProblem(password, again);
    if (problem) {
      saving.setError(problem);
      return;
    }
    void saving.run(async () => {
      await peopleApi.accept(token, password);
      await onSignedIn();
    });
  };

  let body: ReactNode;
  if (invitation.error) {
    const invalid = invitation.error instanceof ApiError && invitation.error.status === 404;
    body = invalid ? (
      <div className="card-body stack" role="alert">
        <h1>This link does not work</h1>
        <p>This invitation link is invalid or has expired. Links work once and for 7 days: ask an admin for a new one.</p>
        <a href="/login">Go to sign in</a>
      </div>
    ) : (
      <ErrorState error={invitation.error} onRetry={invitation.reload} />
    );
  } else if (!invitation.data) {
    body = <Loading />;
  } else {
    body = (
      <form className="card-body stack" onSubmit={submit} noValidate>
        <div className="row">
          <span className="brand-mark" aria-hidden="true" />
          <div>
            <h1>Set your password</h1>
            <div className="muted">{service}</div>
          </div>
        </div>
        <p>
          Welcome, {invitation.data.name}. Choose a password for <strong className="cell-break">{invitation.data.email}</strong>.
        </p>
        <FormError>{saving.error}</FormError>
        <input type="email" name="username" autoComplete="username" value={invitation.data.email} readOnly hidden />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
        <TextField label="Confirm password" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} />
        <Button type="submit" variant="primary" busy={saving.busy}>
          Set password
        </Button>
      </form>
    );
  }
  return (
    <main className="login">
      <div className="card">{body}</div>
    </main>
  );
}

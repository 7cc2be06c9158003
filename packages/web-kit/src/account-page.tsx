import { useState, type FormEvent } from 'react';
import { Button, FormError, TextField } from './forms.tsx';
import { useAction, useTitle } from './hooks.ts';
import { MIN_PASSWORD_LENGTH, newPasswordProblem, peopleApi } from './people-api.ts';
import { useSession } from './session.tsx';
import { PageHeader } from './states.tsx';
import { useToast } from './toast.tsx';

/** **Account** (everyone signed in): their name, and their password (the current one required; other sessions end). */
export default function AccountPage() {
  const { session } = useSession();
  useTitle('Account', 'Switchboard');
  return (
    <>
      <PageHeader title="Account" />
      <p className="page-intro muted">
        Signed in as <strong>{session.user.email}</strong> ({session.user.role === 'admin' ? 'admin' : 'member'}).
      </p>
      <div className="account-cards">
        <NameCard />
        <PasswordCard />
      </div>
    </>
  );
}

function NameCard() {
  const { session, refresh } = useSession();
  const [name, setName] = useState(session.user.name);
  const saving = useAction();
  const notify = useToast();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      saving.setError('Give your name.');
      return;
    }
    void saving.run(async () => {
      await peopleApi.renameSelf(name.trim());
      await refresh();
      notify('Name saved');
    });
  };
  return (
    <section className="card" aria-labelledby="account-name">
      <form className="card-body stack" onSubmit={submit} noValidate>
        <h2 id="account-name">Name</h2>
        <FormError>{saving.error}</FormError>
        <TextField label="Name" value={name} maxLength={200} autoComplete="name" onChange={(e) => setName(e.target.value)} required />
        <div className="row end">
          <Button type="submit" variant="primary" busy={saving.busy} disabled={name.trim() === session.user.name}>
            Save name
          </Button>
        </div>
      </form>
    </section>
  );
}

function PasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [changed, setChanged] = useState(false);
  const saving = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChanged(false);
    if (!current) {
      saving.setError('Give your current password.');
      return;
    }
    const problem = newPasswordProblem(next, again);
    if (problem) {
      saving.setError(problem);
      return;
    }
    void saving.run(async () => {
      await peopleApi.changePassword(current, next).catch((reason: Error) => {
        // The service names the field (`current_password: …`); a person is told in words.
        throw reason.message.startsWith('current_password:') ? new Error('That is not your current password.') : reason;
      });
      setCurrent('');
      setNext('');
      setAgain('');
      setChanged(true);
    });
  };
  return (
    <section className="card" aria-labelledby="account-password">
      <form className="card-body stack" onSubmit={submit} noValidate>
        <h2 id="account-password">Password</h2>
        {changed ? (
          <div className="notice" role="status">
            Password changed. You stay signed in here; your other sessions have ended.
          </div>
        ) : null}
        <FormError>{saving.error}</FormError>
        <TextField label="Current password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} />
        <div className="row end">
          <Button type="submit" variant="primary" busy={saving.busy}>
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}

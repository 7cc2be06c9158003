/** The typed client of the people API every service mounts (core's `registerPeopleRoutes`). */
import { api } from './api.ts';
import type { SessionUser } from './api.ts';

/** A person as `GET /api/admin/users` lists them. */
export interface Person {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  disabled: boolean;
  /** Invited, and the link not used yet. */
  pending: boolean;
  created_at: string;
}

/** A one-time link: shown once, in full. */
export interface Invitation {
  url: string;
  expires_at: string;
}

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

/** The admin API (admins only), a person's own account, and invitation links. */
export const peopleApi = {
  list: (signal?: AbortSignal) => api<{ users: Person[] }>('/api/admin/users', { signal }).then((answer) => answer.users),
  invite: (body: { email: string; name: string; admin: boolean }) =>
    api<{ user: Person; invitation: Invitation }>('/api/admin/users', { method: 'POST', body }),
  change: (id: string, change: { name?: string; admin?: boolean; disabled?: boolean }) =>
    api<{ user: Person }>(userPath(id), { method: 'PATCH', body: change }).then((answer) => answer.user),
  newInvitation: (id: string) => api<{ invitation: Invitation }>(`${userPath(id)}/invitation`, { method: 'POST' }).then((answer) => answer.invitation),
  renameSelf: (name: string) => api<{ user: SessionUser }>('/api/account', { method: 'PATCH', body: { name } }).then((answer) => answer.user),
  changePassword: (current: string, next: string) =>
    api<void>('/api/account/password', { method: 'POST', body: { current_password: current, new_password: next } }),
  invitation: (token: string, signal?: AbortSignal) =>
    api<{ email: string; name: string }>(`/api/invitations/${encodeURIComponent(token)}`, { signal, allowUnauthorized: true }),
  accept: (token: string, password: string) =>
    api<{ user: SessionUser }>(`/api/invitations/${encodeURIComponent(token)}`, { method: 'POST', body: { password }, allowUnauthorized: true }),
};

/** The shortest password the service accepts (core's MIN_PASSWORD_LENGTH). */
export const MIN_PASSWORD_LENGTH = 12;

/** What is wrong with a new password and its confirmation, said before any request; undefined when fine. */
export function newPasswordProblem(password: string, confirmation: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password !== confirmation) return 'The two passwords are not the same.';
  return undefined;
}

/** A person's status as the People page shows it. */
export function personStatus(person: Pick<Person, 'disabled' | 'pending'>): 'Disabled' | 'Invited' | 'Active' {
  return person.disabled ? 'Disabled' : person.pending ? 'Invited' : 'Active';
}

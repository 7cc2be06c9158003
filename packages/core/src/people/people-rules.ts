// The rules of administering people and of a person's own account: what a body must hold, what an admin may
// not do to themselves, when an invitation link works. No I/O and no clock: time is passed in.
import { z } from 'zod';
import { AppError } from '../errors.ts';

/** An invitation link works for 7 days. */
export const INVITATION_LIFETIME_MS = 7 * 86_400_000;
/** The shortest password a person may set: through an invitation, the Account page, `switchboard user create` or SWITCHBOARD_ADMIN_PASSWORD. */
export const MIN_PASSWORD_LENGTH = 12;
/** What every refused invitation link answers, whatever the reason (expired, used, forged, disabled): nothing is revealed. */
export const INVALID_INVITATION = 'This invitation link is invalid or has expired';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A person as the admin API lists them. */
export interface Person {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  disabled: boolean;
  /** True until the person has set a password through their invitation. */
  pending: boolean;
  created_at: string;
}

/** The user fields a person is presented from. */
export interface PersonRow {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  password_hash: string;
  disabled_at: string | null;
  created_at: string;
}

/** The fields of a person that go over the wire (never the password hash). */
export function presentPerson(row: PersonRow): Person {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled_at !== null,
    pending: row.password_hash === '',
    created_at: row.created_at,
  };
}

const name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const newPassword = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024, 'must be at most 1024 characters');

/** `POST /api/admin/users`: invite a person. */
export const inviteBody = z.object({
  email: z.string().trim().toLowerCase().max(320, 'must be at most 320 characters').regex(EMAIL, 'must be an email address'),
  name,
  admin: z.boolean().default(false),
});

/** `PATCH /api/admin/users/{id}`: any of these. */
export const personChangeBody = z
  .object({ name: name.optional(), admin: z.boolean().optional(), disabled: z.boolean().optional() })
  .refine((body) => body.name !== undefined || body.admin !== undefined || body.disabled !== undefined, {
    message: 'give at least one of name, admin, disabled',
  });

/** `PATCH /api/account`. */
export const accountBody = z.object({ name });

/** `POST /api/account/password`. */
export const passwordChangeBody = z.object({
  current_password: z.string().min(1, 'is required').max(1024, 'must be at most 1024 characters'),
  new_password: newPassword,
});

/** `POST /api/invitations/{token}`. */
export const acceptBody = z.object({ password: newPassword });

/** One problem of a body, named by its field. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Parses a body with its schema; a body with problems is a 422 (`validation_failed`) whose message names every
 * problem (`email: must be an email address; name: is required`) and whose details list them by field.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const problems: FieldProblem[] = parsed.error.issues.map((issue) => {
    const field = issue.path.join('.') || 'body';
    const given = issue.path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | null | undefined)?.[key], body);
    const missing = issue.code === 'invalid_type' && given === undefined;
    return { field, message: missing ? 'is required' : issue.code === 'invalid_type' ? `must be a ${issue.expected}` : issue.message };
  });
  const said = problems.map((problem) => (problem.field === 'body' ? problem.message : `${problem.field}: ${problem.message}`)).join('; ');
  return failValidation(said, problems);
}

function failValidation(message: string, problems: FieldProblem[]): never {
  throw new AppError('validation_failed', message, { problems });
}

/** 422 naming `current_password` when the current password given is not the user's. */
export function wrongCurrentPassword(): never {
  return failValidation('current_password: is not your current password', [{ field: 'current_password', message: 'is not your current password' }]);
}

/** What an admin asks to change about a person. */
export interface PersonChange {
  name?: string;
  admin?: boolean;
  disabled?: boolean;
}

/**
 * An admin may rename themselves but not disable or demote themselves: the one acting is an admin who stays,
 * so the deployment never loses its last admin. 409 `conflict` with the reason.
 */
export function refuseSelfLockout(actorId: string, targetId: string, change: PersonChange): void {
  if (actorId !== targetId) return;
  if (change.disabled === true) throw new AppError('conflict', 'You cannot disable yourself: ask another admin to do it');
  if (change.admin === false) throw new AppError('conflict', 'You cannot remove your own admin role: ask another admin to do it');
}

/** A new invitation is refused for a disabled person (409): enabling them comes first. */
export function refuseInvitingDisabled(person: Person): void {
  if (person.disabled) throw new AppError('conflict', `${person.email} is disabled: enable them before making a new invitation link`);
}

/** When a link made `now` stops working. */
export function invitationExpiry(now: Date): Date {
  return new Date(now.getTime() + INVITATION_LIFETIME_MS);
}

/** An invitation as stored, with its person's state. */
export interface InvitationState {
  expires_at: string;
  used_at: string | null;
  disabled_at: string | null;
}

/** Whether a link still works at `now`: not used, not expired, and its person not disabled. */
export function invitationUsable(invitation: InvitationState | undefined, now: Date): boolean {
  return invitation !== undefined && invitation.used_at === null && invitation.disabled_at === null && Date.parse(invitation.expires_at) > now.getTime();
}

/** The one answer of a link that does not work. */
export function invalidInvitation(): AppError {
  return new AppError('not_found', INVALID_INVITATION);
}

/** The prefix of invitation tokens: shaped like the other tokens, so log lines redact them. */
export const INVITATION_PREFIX = 'sbi_';

/** The link a person opens: the service's public origin, `/invite/`, the token. */
export function invitationUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}/invite/${token}`;
}

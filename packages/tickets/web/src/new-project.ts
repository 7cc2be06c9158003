import { api, newTenantForm } from '@switchboard/web-kit';

/** The switcher's **New project** (admins): `POST /api/projects` (a board `Main` with the default columns), then the new project opens. */
export const NEW_PROJECT = newTenantForm({
  label: 'New project',
  codeLabel: 'Key',
  codeHint: '2 to 10 upper-case letters or digits, starting with a letter: tickets are KEY-1, KEY-2…; never changed.',
  upperCase: true,
  nameRequired: true,
  description: true,
  create: ({ code, name, description }) =>
    api<{ key: string }>('/api/projects', { method: 'POST', body: { key: code, name, ...(description ? { description } : {}) } }),
  codeOf: (result) => (result as { key: string }).key,
});

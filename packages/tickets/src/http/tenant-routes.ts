import { AppError, isAppError, registerTenantCreateRoute, type App, type FieldProblem, type WebSessions } from '@switchboard/core';
import { createProject } from '../admin.ts';
import { validateProjectKey } from '../domain/project-rules.ts';
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX, validDescription, validName } from '../domain/settings-rules.ts';
import type { Db } from '../store/project-store.ts';

/** 422 naming every problem: the first one's message (and how many more), each in `details.issues` by its field. */
export function invalidFields(problems: FieldProblem[]): AppError {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return new AppError('validation_failed', `${problems[0].message}${more}`, { issues: problems.map(({ field, message }) => ({ path: field, message })) });
}

/** The message of the board's own rule broken by a value, or undefined when it holds. */
function ruleMessage(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (isAppError(error)) return error.message;
    throw error;
  }
}

/**
 * `POST /api/projects` `{"key", "name", "description"?}` → 201 `{"project_id", "key", "name"}` (web.md,
 * "Administration"; README, "Projects and members"): a new project with the default board, for an admin
 * session only (a non-admin and a token get the 404 of a missing route); 409 for a key in use.
 */
export function registerTenantRoutes(app: App, deps: { web: WebSessions; db: Db }): void {
  registerTenantCreateRoute(app, {
    web: deps.web,
    service: 'tickets',
    path: '/api/projects',
    tags: ['projects'],
    summary: 'Create a project (admin session only)',
    event: 'project_created',
    rules: [
      { field: 'key', required: true, check: (key) => ruleMessage(() => validateProjectKey(key)) },
      { field: 'name', required: true, max: PROJECT_NAME_MAX, check: (name) => ruleMessage(() => validName('project', name)) },
      { field: 'description', max: PROJECT_DESCRIPTION_MAX, check: (text) => ruleMessage(() => validDescription(text)) },
    ],
    invalid: invalidFields,
    async create(fields) {
      const created = await createProject(deps.db, { key: fields.key ?? '', name: fields.name ?? '', description: fields.description });
      return { key: created.key, answer: { project_id: created.project_id, key: created.key, name: fields.name } };
    },
  });
}

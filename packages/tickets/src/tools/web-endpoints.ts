import { z } from 'zod';
import { BOARD_FIRST_CARDS_MAX, boardView } from '../service/board-view.ts';
import { BOARD_KEYS_MAX } from '../domain/board-page.ts';
import {
  addMember,
  createBoard,
  createColumn,
  createLabel,
  deleteColumn,
  deleteLabel,
  getSettings,
  removeMember,
  updateBoard,
  updateColumn,
  updateLabel,
  updateSettings,
} from '../service/settings-service.ts';
import { createProjectToken, projectTokens, revokeTokenInProject } from '../service/token-service.ts';
import { defineTool, enumParam, limitParam } from './tool.ts';
import { ACCESS_LEVELS } from '../domain/vocabulary.ts';
import {
  BOARDS_MAX,
  COLUMNS_MAX,
  LABEL_NAME_MAX,
  LABELS_MAX,
  NAME_MAX,
  PROJECT_COLUMNS_MAX,
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
} from '../domain/settings-rules.ts';

const id = (what: string) => z.string().trim().min(1).describe(`The ${what}'s id (from GET /api/projects/{KEY}/settings).`);
const name = (what: 'board' | 'column' | 'label') =>
  z.string().describe(`The ${what}'s name (1 to ${what === 'label' ? LABEL_NAME_MAX : NAME_MAX} characters, one line, no " or \\; unique without case).`);
const position = z.number().int().min(0).describe('Place on the board, from 0 (the first column); past the end means last.');
const isDone = z.boolean().describe("true makes this the board's done column (the previous one becomes an ordinary column).");
const color = z.string().describe('#rgb or #rrggbb, e.g. #e11d48.');

/**
 * The web UI's endpoints besides the 19 tools, under /api/projects/{KEY} only (README, "Web UI API"): the
 * board's cards and the settings. Defined like the tools (one zod schema, one handler, one validation path),
 * and never served over MCP or /api/mcp/v1.
 */
export const webEndpoints = [
  defineTool({
    name: 'get_board',
    description: `Every ticket of one board as cards in their lanes (each lane in its order, by rank), with labels, assignee, parent, an epic's progress and the card's rank; with \`cards\`, only each lane's first ones (\`ticket_count\` stays the lane's whole count, \`complete\` says whether every card is there); with \`keys\`, only those tickets' cards, each with its \`column\` (\`{"board", "cards"}\`; a ticket not on this board is left out).`,
    input: z.strictObject({
      board: z.string().describe("The board's name, without case; default the first board.").optional(),
      cards: limitParam(
        BOARD_FIRST_CARDS_MAX,
        `At most this many cards per lane (1 to ${BOARD_FIRST_CARDS_MAX}): what a page shows first of a big board. Default: every card.`,
      ).optional(),
      keys: z
        .string()
        .describe(
          `Comma-separated ticket keys (any case, at most ${BOARD_KEYS_MAX}): answer only these tickets' cards, with their lanes, as a page places tickets changed since it read the board.`,
        )
        .optional(),
    }),
    rest: { method: 'GET', path: '/board' },
    mcp: false,
    handler: (ctx, input) => boardView(ctx, input),
  }),
  defineTool({
    name: 'get_settings',
    description: 'The project (name, description, Auto-Summary) and every board with its columns.',
    input: z.strictObject({}),
    rest: { method: 'GET', path: '/settings' },
    mcp: false,
    handler: (ctx) => getSettings(ctx),
  }),
  defineTool({
    name: 'update_settings',
    description: "Changes the project's name, description or Auto-Summary; answers the settings.",
    input: z.strictObject({
      name: z.string().describe(`The project's name (1 to ${PROJECT_NAME_MAX} characters, one line).`).optional(),
      description: z.string().describe(`The project's description (at most ${PROJECT_DESCRIPTION_MAX} characters).`).optional(),
      auto_summary: z.boolean().describe('Auto-Summary on or off.').optional(),
      settings: z.strictObject({ auto_summary: z.boolean().optional() }).describe('The same Auto-Summary, as GET answers it.').optional(),
    }),
    rest: { method: 'PUT', path: '/settings' },
    mcp: false,
    handler: (ctx, input) => updateSettings(ctx, input),
  }),
  defineTool({
    name: 'create_board',
    description: `Adds a board after the others, with the given columns (the last is the done column) or the default ones. A project has at most ${BOARDS_MAX} boards and ${PROJECT_COLUMNS_MAX} columns in all, a board at most ${COLUMNS_MAX} columns.`,
    input: z.strictObject({
      name: name('board'),
      columns: z
        .array(z.string())
        .describe('Column names in order; the last is the done column. Default: Backlog, To Do, In Progress, Review, Done.')
        .optional(),
    }),
    rest: { method: 'POST', path: '/boards', status: 201 },
    mcp: false,
    handler: (ctx, input) => createBoard(ctx, input),
  }),
  defineTool({
    name: 'update_board',
    description: 'Renames a board.',
    input: z.strictObject({ board_id: id('board'), name: name('board') }),
    rest: { method: 'PUT', path: '/boards/{id}', idParam: 'board_id' },
    mcp: false,
    handler: (ctx, input) => updateBoard(ctx, input),
  }),
  defineTool({
    name: 'create_column',
    description: `Adds a column to a board (default last). A board has at most ${COLUMNS_MAX} columns, a project ${PROJECT_COLUMNS_MAX} in all.`,
    input: z.strictObject({ board_id: id('board'), name: name('column'), position: position.optional(), is_done_column: isDone.optional() }),
    rest: { method: 'POST', path: '/boards/{id}/columns', idParam: 'board_id', status: 201 },
    mcp: false,
    handler: (ctx, input) => createColumn(ctx, input),
  }),
  defineTool({
    name: 'update_column',
    description: 'Renames a column, moves it (position) or makes it the done column. The tools see the change at once.',
    input: z.strictObject({ column_id: id('column'), name: name('column').optional(), position: position.optional(), is_done_column: isDone.optional() }),
    rest: { method: 'PUT', path: '/columns/{id}', idParam: 'column_id' },
    mcp: false,
    handler: (ctx, input) => updateColumn(ctx, input),
  }),
  defineTool({
    name: 'delete_column',
    description: "Deletes an empty column that is neither the board's last nor its done column.",
    input: z.strictObject({ column_id: id('column') }),
    rest: { method: 'DELETE', path: '/columns/{id}', idParam: 'column_id' },
    mcp: false,
    handler: (ctx, input) => deleteColumn(ctx, input),
  }),
  defineTool({
    name: 'create_label',
    description: `Adds a label (default colour #6b7280). A project has at most ${LABELS_MAX} labels.`,
    input: z.strictObject({ name: name('label'), color: color.optional() }),
    rest: { method: 'POST', path: '/labels', status: 201 },
    mcp: false,
    handler: (ctx, input) => createLabel(ctx, input),
  }),
  defineTool({
    name: 'update_label',
    description: 'Renames a label or changes its colour.',
    input: z.strictObject({ label_id: id('label'), name: name('label').optional(), color: color.optional() }),
    rest: { method: 'PUT', path: '/labels/{id}', idParam: 'label_id' },
    mcp: false,
    handler: (ctx, input) => updateLabel(ctx, input),
  }),
  defineTool({
    name: 'delete_label',
    description: 'Deletes a label and takes it off its tickets.',
    input: z.strictObject({ label_id: id('label') }),
    rest: { method: 'DELETE', path: '/labels/{id}', idParam: 'label_id' },
    mcp: false,
    handler: (ctx, input) => deleteLabel(ctx, input),
  }),
  defineTool({
    name: 'add_member',
    description: 'Makes a user of the deployment a member of the project (admin only).',
    input: z.strictObject({ email: z.string().trim().min(1).describe("The user's email (a user created with `switchboard user create`).") }),
    rest: { method: 'POST', path: '/members' },
    mcp: false,
    access: 'admin',
    handler: (ctx, input) => addMember(ctx, input),
  }),
  defineTool({
    name: 'remove_member',
    description: "Ends a user's membership of the project (admin only).",
    input: z.strictObject({ user_id: z.string().trim().min(1).describe("The user's id (from GET …/members).") }),
    rest: { method: 'DELETE', path: '/members/{id}', idParam: 'user_id' },
    mcp: false,
    access: 'admin',
    handler: (ctx, input) => removeMember(ctx, input),
  }),
  defineTool({
    name: 'list_tokens',
    description: "The project's MCP connection tokens (never their secrets), oldest first.",
    input: z.strictObject({}),
    rest: { method: 'GET', path: '/tokens' },
    mcp: false,
    access: 'user',
    handler: (ctx) => projectTokens(ctx),
  }),
  defineTool({
    name: 'create_token',
    description: 'Issues a project token, shown this once, with the MCP URL to connect a client to.',
    input: z.strictObject({
      name: z.string().describe('What the token is for, e.g. "claude-code" (1 to 100 characters); activity names its changes token:NAME.'),
      access: enumParam('access', ACCESS_LEVELS, 'write (default): every tool; read: only the tools that read, and REST reads.').optional(),
    }),
    rest: { method: 'POST', path: '/tokens', status: 201 },
    mcp: false,
    access: 'user',
    handler: (ctx, input) => createProjectToken(ctx, input),
  }),
  defineTool({
    name: 'revoke_token',
    description: 'Revokes a token: its next call is refused, on every instance.',
    input: z.strictObject({ token_id: z.string().trim().min(1).describe("The token's id (from GET …/tokens).") }),
    rest: { method: 'DELETE', path: '/tokens/{id}', idParam: 'token_id' },
    mcp: false,
    access: 'user',
    handler: (ctx, input) => revokeTokenInProject(ctx, input),
  }),
];

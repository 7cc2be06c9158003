// Disabling a person (web.md, "Administration") ends their MCP clients' access at once: a real OAuth grant,
// made through discovery, consent and the code exchange, is refused on its next call and refresh.
import { describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '@switchboard/core/testing';
import { signInClient, tokenRequest } from '@switchboard/core/testing/oauth';
import { restCaller, useBoard } from './helpers.ts';
import { signedInUser, webCall } from './web-helpers.ts';

describe.each(dialectsUnderTest())('disabling a person on the ticket board (%s)', (dialect) => {
  const board = useBoard(dialect);

  it("refuses their OAuth access token and refresh token, and their browser's cookie, on the next request", async () => {
    const admin = await signedInUser(board, 'root@example.com', { admin: true });
    const alice = await signedInUser(board, 'alice@example.com', { memberOf: ['DEMO'] });
    const { setup, tokens } = await signInClient(`${board.url}/api/mcp/v1/mcp`, alice.cookie, { scopeKey: 'DEMO', access: 'read' });
    expect((await restCaller(board.url, tokens.access_token)('list_labels')).labels).toEqual([]);

    const disabled = await webCall(board, admin.cookie, `/api/admin/users/${alice.id}`, { method: 'PATCH', body: { disabled: true } });
    expect(disabled.status).toBe(200);
    expect(disabled.body.user).toMatchObject({ email: 'alice@example.com', disabled: true });

    const call = await fetch(`${board.url}/api/mcp/v1/labels`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(call.status).toBe(401);
    const refreshed = await tokenRequest(board.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: setup.client.client_id });
    expect(refreshed).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'This grant was revoked; sign in again' } });
    const page = await webCall(board, alice.cookie, '/api/projects/DEMO/status');
    expect(page.status).toBe(401);
  });
});

import { describe, expect, it } from 'vitest';
import { mcpClientLines, mcpServerName } from '../../web/src/components/mcp-lines.ts';

describe("the API page's MCP client lines", () => {
  const url = 'https://flows.example/api/llm/acme/mcp';

  it('names the server after the organization and gives Claude Code, Cursor and VS Code a line each', () => {
    expect(mcpServerName('acme')).toBe('switchboard-acme');
    const lines = mcpClientLines(url, 'acme', 'SWITCHBOARD_TOKEN');
    expect(lines.map((line) => line.id)).toEqual(['claude-code', 'cursor', 'vscode']);
    expect(lines[0].code).toBe(`claude mcp add --transport http switchboard-acme ${url} --header "Authorization: Bearer $SWITCHBOARD_TOKEN"`);
    expect(JSON.parse(lines[1].code)).toEqual({
      mcpServers: { 'switchboard-acme': { url, headers: { Authorization: `Bearer \${env:SWITCHBOARD_TOKEN}` } } },
    });
    // VS Code signs in by OAuth when the endpoint answers 401: the URL alone.
    expect(lines[2].code).toBe(`code --add-mcp '{"name":"switchboard-acme","type":"http","url":"${url}"}'`);
  });
});

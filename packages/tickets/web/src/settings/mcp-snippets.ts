/** The ready-to-paste connection snippets of Settings → MCP Connection: pure, so each client's exact format is unit-tested. */

/** One client's snippet: its title, where it goes, and the text. */
export interface McpSnippet {
  id: 'claude-code' | 'cursor' | 'vscode';
  title: string;
  where: string;
  language: 'shell' | 'json';
  code: string;
}

/** The snippets for Claude Code (`claude mcp add`), Cursor and VS Code (`mcp.json`), for the endpoint `url` and a project token. */
export function mcpSnippets(url: string, token: string): McpSnippet[] {
  const header = `Bearer ${token}`;
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      where: 'Run in a terminal, in your project',
      language: 'shell',
      code: `claude mcp add --transport http switchboard-tickets ${url} --header "Authorization: ${header}"`,
    },
    {
      id: 'cursor',
      title: 'Cursor',
      where: '~/.cursor/mcp.json, or .cursor/mcp.json in the project',
      language: 'json',
      code: JSON.stringify({ mcpServers: { 'switchboard-tickets': { url, headers: { Authorization: header } } } }, null, 2),
    },
    {
      id: 'vscode',
      title: 'VS Code',
      where: '.vscode/mcp.json in the project',
      language: 'json',
      code: JSON.stringify({ servers: { 'switchboard-tickets': { type: 'http', url, headers: { Authorization: header } } } }, null, 2),
    },
  ];
}

/** The MCP endpoint of this service as seen from the page, when the service did not name one. */
export function defaultMcpUrl(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/api/mcp/v1/mcp`;
}

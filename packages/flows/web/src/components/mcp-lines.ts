/** One ready-made way to add a flow's MCP endpoint to a client. */
export interface McpClientLine {
  id: 'claude-code' | 'cursor' | 'vscode';
  title: string;
  language: string;
  code: string;
}

/** The MCP server name clients list the organization's flows under (`switchboard-ORG`). */
export function mcpServerName(orgCode: string): string {
  return `switchboard-${orgCode}`;
}

/**
 * The lines that add the organization's MCP endpoint to Claude Code and Cursor, sending the token from the
 * environment variable `tokenVar`, and to VS Code, which signs in by URL alone.
 */
export function mcpClientLines(url: string, orgCode: string, tokenVar: string): McpClientLine[] {
  const name = mcpServerName(orgCode);
  const cursor = { mcpServers: { [name]: { url, headers: { Authorization: `Bearer \${env:${tokenVar}}` } } } };
  // VS Code signs in by itself (OAuth, scope flows:run) when the server answers 401: the URL is all it needs.
  const vscode = { name, type: 'http', url };
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      language: 'bash',
      code: `claude mcp add --transport http ${name} ${url} --header "Authorization: Bearer $${tokenVar}"`,
    },
    { id: 'cursor', title: 'Cursor (.cursor/mcp.json)', language: 'json', code: JSON.stringify(cursor, null, 2) },
    { id: 'vscode', title: 'VS Code', language: 'bash', code: `code --add-mcp '${JSON.stringify(vscode)}'` },
  ];
}

/** The base path of the REST API and the MCP endpoint. */
export const BASE_PATH = '/api/mcp/v1';

/** The MCP endpoint (Streamable HTTP). */
export const MCP_PATH = `${BASE_PATH}/mcp`;

/** The MCP endpoint that serves only the read tools, whatever the token may do (it narrows, never widens). */
export const READONLY_MCP_PATH = `${MCP_PATH}/readonly`;

/** Both MCP endpoints: their errors are JSON-RPC errors. */
export const MCP_PATHS: ReadonlySet<string> = new Set([MCP_PATH, READONLY_MCP_PATH]);

/** Paths under the base that need no token. */
export const PUBLIC_PATHS = new Set([`${BASE_PATH}/health`]);

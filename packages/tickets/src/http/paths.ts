/** The base path of the REST API and the MCP endpoint. */
export const BASE_PATH = '/api/mcp/v1';

/** The MCP endpoint (Streamable HTTP). */
export const MCP_PATH = `${BASE_PATH}/mcp`;

/** Paths under the base that need no token. */
export const PUBLIC_PATHS = new Set([`${BASE_PATH}/health`]);

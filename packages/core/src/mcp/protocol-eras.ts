/** The revision of the modern era: no `initialize`; every request names its version, client and capabilities in `_meta`. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The legacy revisions clients still send (`initialize`, then `MCP-Protocol-Version` on each request), newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** Every revision an endpoint serves (design/mcp.md, "Protocol revisions: dual-era"). */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS];

/** Which handshake a request belongs to: `modern` (2026-07-28, per-request `_meta`) or `legacy` (the 2025 revisions). */
export type ProtocolEra = 'legacy' | 'modern';

/** The `_meta` key of a failed tool call's machine-readable error: `{"code", "message"}` (design/mcp.md). */
export const ERROR_META_KEY = 'dev.switchboard/error';

/** A JSON-RPC error response body, as the SDK writes its own (`{"jsonrpc", "error", "id"}`). */
export function jsonRpcErrorBody(code: number, message: string, id: string | number | null = null): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
}

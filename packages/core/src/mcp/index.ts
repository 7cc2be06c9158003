export * from './protocol-eras.ts';
export * from './request-guard.ts';
export * from './tool-results.ts';
export * from './dual-era-handler.ts';
export * from './plain-tool-call.ts';
export * from './mcp-endpoint.ts';

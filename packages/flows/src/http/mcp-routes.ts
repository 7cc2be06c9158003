import { baseUrlOf, type App } from '@switchboard/core';
import { FlowsError, flowNotFound } from '../domain/errors.ts';
import { parseMcpSettings } from '../domain/mcp-settings.ts';
import { defaultToolName, type FlowMcpRow, type FlowMcpStore } from '../store/flow-mcp-store.ts';
import { GET_FLOW_RUN } from '../mcp/flow-tools.ts';
import { bearer, flowParams } from './schema.ts';
import { z } from 'zod';

/** The path of an organization's MCP endpoint. */
export const ORG_MCP_PATH = '/api/llm/:org_code/mcp';

/** The endpoint's URL for an organization. */
export function mcpUrlOf(baseUrl: string, orgCode: string): string {
  return `${baseUrl}/api/llm/${encodeURIComponent(orgCode)}/mcp`;
}

/** A flow's MCP settings as the API answers them. */
export function presentMcpSettings(flow: FlowMcpRow, mcpUrl: string) {
  return { enabled: flow.enabled, tool_name: flow.toolName ?? defaultToolName(flow.slug), description: flow.toolDescription, mcp_url: mcpUrl };
}

const settingsBody = z
  .any()
  .describe('{"enabled": boolean, "tool_name"?: 1-64 of [A-Za-z0-9_.-] (default: the slug with "-" as "_"), "description"?: string (default: the flow\'s)}');

/** `GET|PUT /api/llm/{org_code}/flows/{slug}/mcp`: whether a flow is a tool of the organization's MCP endpoint, and as what (manage scope). */
export function registerMcpSettingsRoutes(app: App, deps: { settings: FlowMcpStore; publicBaseUrl: string | undefined }): void {
  const tags = ['mcp'];
  const config = { scope: 'manage' as const };
  app.get(
    '/api/llm/:org_code/flows/:slug/mcp',
    { config, schema: { tags, summary: "The flow's MCP tool settings", params: flowParams, security: bearer } },
    async (request) => {
      const principal = request.principal!;
      const flow = await deps.settings.get(principal.orgId, request.params.slug);
      if (!flow) throw flowNotFound(request.params.slug);
      return presentMcpSettings(flow, mcpUrlOf(baseUrlOf(request, deps.publicBaseUrl), principal.orgCode));
    },
  );
  app.put(
    '/api/llm/:org_code/flows/:slug/mcp',
    {
      config,
      schema: {
        tags,
        summary: 'Enable or disable the flow as an MCP tool, with its name and description',
        params: flowParams,
        body: settingsBody,
        security: bearer,
      },
    },
    async (request) => {
      const principal = request.principal!;
      const flow = await deps.settings.get(principal.orgId, request.params.slug);
      if (!flow) throw flowNotFound(request.params.slug);
      const wanted = parseMcpSettings(request.body);
      const toolName = wanted.toolName ?? flow.toolName ?? defaultToolName(flow.slug);
      if (wanted.enabled && toolName === GET_FLOW_RUN) throw toolNameTaken(toolName, "the endpoint's own tool");
      const holder = wanted.enabled ? await deps.settings.holderOf(principal.orgId, toolName, flow.id) : undefined;
      if (holder !== undefined) throw toolNameTaken(toolName, `flow "${holder}"`);
      try {
        await deps.settings.set(flow.id, { enabled: wanted.enabled, toolName, description: wanted.description });
      } catch (error) {
        // Two saves at once: the unique index of enabled tool names refuses the second.
        if (isUniqueViolation(error)) throw toolNameTaken(toolName, undefined);
        throw error;
      }
      const saved = { ...flow, enabled: wanted.enabled, toolName, toolDescription: wanted.description };
      return presentMcpSettings(saved, mcpUrlOf(baseUrlOf(request, deps.publicBaseUrl), principal.orgCode));
    },
  );
}

function toolNameTaken(toolName: string, holder: string | undefined): FlowsError {
  const who = holder ?? 'another enabled flow';
  return new FlowsError('conflict', `The tool name "${toolName}" is already used by ${who}: choose another "tool_name"`, 'tool_name_taken', {
    param: 'tool_name',
  });
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/.test(e?.message ?? '');
}

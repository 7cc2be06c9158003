import type { Kysely } from 'kysely';
import type { FlowsDatabase } from './database.ts';

/** A flow as the MCP endpoint sees it. */
export interface FlowMcpRow {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  enabled: boolean;
  /** The tool name as stored (null: the default). */
  toolName: string | null;
  toolDescription: string | null;
}

/** The default tool name of a flow: its slug with `-` as `_`. */
export function defaultToolName(slug: string): string {
  return slug.replaceAll('-', '_');
}

/** The MCP settings of flows. */
export class FlowMcpStore {
  constructor(private readonly db: Kysely<FlowsDatabase>) {}

  private select() {
    return this.db
      .selectFrom('flows')
      .select(['id', 'slug', 'name', 'description', 'mcp_enabled', 'mcp_tool_name', 'mcp_description'])
      .$castTo<FlowsDatabase['flows'] & { id: number }>();
  }

  /** One flow's settings, or undefined when the organization has no such flow. */
  async get(orgId: number, slug: string): Promise<FlowMcpRow | undefined> {
    const row = await this.select().where('org_id', '=', orgId).where('slug', '=', slug).executeTakeFirst();
    return row && present(row);
  }

  /** The organization's flows enabled as tools, by slug. */
  async enabled(orgId: number): Promise<FlowMcpRow[]> {
    const rows = await this.select().where('org_id', '=', orgId).where('mcp_enabled', '=', 1).orderBy('slug').execute();
    return rows.map(present);
  }

  /** The enabled flow that is the tool of this name, if any. */
  async byToolName(orgId: number, toolName: string): Promise<FlowMcpRow | undefined> {
    const row = await this.select().where('org_id', '=', orgId).where('mcp_enabled', '=', 1).where('mcp_tool_name', '=', toolName).executeTakeFirst();
    return row && present(row);
  }

  /** The enabled flow of another slug that has this tool name, if any. */
  async holderOf(orgId: number, toolName: string, exceptFlowId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('flows')
      .select('slug')
      .where('org_id', '=', orgId)
      .where('mcp_enabled', '=', 1)
      .where('mcp_tool_name', '=', toolName)
      .where('id', '<>', exceptFlowId)
      .executeTakeFirst();
    return row?.slug;
  }

  /** Stores a flow's settings (the tool name always stored when enabled, so that the unique index sees it). */
  async set(flowId: number, settings: { enabled: boolean; toolName: string | null; description: string | null }): Promise<void> {
    await this.db
      .updateTable('flows')
      .set({ mcp_enabled: settings.enabled ? 1 : 0, mcp_tool_name: settings.toolName, mcp_description: settings.description })
      .where('id', '=', flowId)
      .execute();
  }
}

function present(row: FlowsDatabase['flows'] & { id: number }): FlowMcpRow {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    enabled: row.mcp_enabled === 1,
    toolName: row.mcp_tool_name ?? null,
    toolDescription: row.mcp_description ?? null,
  };
}

import { CompiledQuery, type Kysely } from 'kysely';
import type { DialectName } from '@switchboard/core';
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
  /** The flow's current version (a run of the tool needs no other query to find it). */
  version: number;
}

const COLUMNS = ['id', 'slug', 'name', 'description', 'version', 'mcp_enabled', 'mcp_tool_name', 'mcp_description'] as const;

/** The default tool name of a flow: its slug with `-` as `_`. */
export function defaultToolName(slug: string): string {
  return slug.replaceAll('-', '_');
}

/** The MCP settings of flows. */
export class FlowMcpStore {
  // Looked up on every tools/call: written once as SQL so that no query is built per call.
  private readonly byToolNameSql: string;

  constructor(
    private readonly db: Kysely<FlowsDatabase>,
    dialect: DialectName,
  ) {
    const [org, name] = dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    this.byToolNameSql = `select ${COLUMNS.join(', ')} from flows where org_id = ${org} and mcp_enabled = 1 and mcp_tool_name = ${name}`;
  }

  private select() {
    return this.db.selectFrom('flows').select(COLUMNS).$castTo<FlowsDatabase['flows'] & { id: number }>();
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
    const { rows } = await this.db.executeQuery<FlowsDatabase['flows'] & { id: number }>(CompiledQuery.raw(this.byToolNameSql, [orgId, toolName]));
    return rows[0] && present(rows[0]);
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
    version: row.version,
  };
}

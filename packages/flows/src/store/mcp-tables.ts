import { sql } from 'kysely';
import type { VersionedMigration } from '@switchboard/core';

/** Columns added to `flows` by 0030: whether the flow is an MCP tool of its organization, and as what (issue 24). */
export interface FlowMcpColumns {
  /** 1 when the flow is listed on the organization's MCP endpoint. */
  mcp_enabled?: number;
  /** The tool name chosen; null: the default (the slug with `-` as `_`). */
  mcp_tool_name?: string | null;
  /** The tool's description; null: the flow's description. */
  mcp_description?: string | null;
}

/** 0030: a flow's MCP settings; two enabled flows of an organization never share a tool name (a partial unique index). */
export const flowMcpMigration: VersionedMigration = {
  async up(db) {
    await db.schema
      .alterTable('flows')
      .addColumn('mcp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('flows').addColumn('mcp_tool_name', 'text').execute();
    await db.schema.alterTable('flows').addColumn('mcp_description', 'text').execute();
    await db.schema
      .createIndex('flows_mcp_tool_name')
      .unique()
      .on('flows')
      .columns(['org_id', 'mcp_tool_name'])
      .where(sql.ref('mcp_enabled'), '=', 1)
      .execute();
  },
};

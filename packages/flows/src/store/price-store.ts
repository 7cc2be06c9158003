import type { Kysely } from 'kysely';
import { isoNow } from '@switchboard/core';
import type { PriceTable } from '../domain/prices.ts';
import type { FlowsDatabase } from './database.ts';
import { bumpProvidersVersion } from './org-store.ts';

/** An organization's own model prices, per provider connection name. */
export class PriceStore {
  constructor(private readonly db: Kysely<FlowsDatabase>) {}

  /** Every provider's own prices of the organization (providers without any absent). */
  async forOrg(orgId: number): Promise<Map<string, PriceTable>> {
    const rows = await this.db.selectFrom('provider_prices').selectAll().where('org_id', '=', orgId).execute();
    const byProvider = new Map<string, PriceTable>();
    for (const row of rows) {
      let table = byProvider.get(row.provider);
      if (!table) {
        table = {};
        byProvider.set(row.provider, table);
      }
      table[row.model] = { input_per_mtok: Number(row.input_per_mtok), output_per_mtok: Number(row.output_per_mtok) };
    }
    return byProvider;
  }

  /**
   * Replaces a provider's own prices with `table` (empty: back to the defaults alone) and bumps the
   * organization's providers_version, so that every instance prices the next run with them.
   */
  async replace(orgId: number, provider: string, table: PriceTable, now = new Date()): Promise<void> {
    const stamp = isoNow(now);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('provider_prices').where('org_id', '=', orgId).where('provider', '=', provider).execute();
      const rows = Object.entries(table).map(([model, price]) => ({ org_id: orgId, provider, model, ...price, updated_at: stamp }));
      // Chunks keep each statement under SQLite's bound-parameter limit.
      for (let i = 0; i < rows.length; i += 100)
        await trx
          .insertInto('provider_prices')
          .values(rows.slice(i, i + 100))
          .execute();
      await bumpProvidersVersion(trx, orgId);
    });
  }
}

// LLM Hub → Providers → Prices: a provider's model prices (US dollars per million tokens), the dated
// defaults of OpenAI and Anthropic beside the organization's own, edited as a table (design/flows.md, "Costs").
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Dialog, ErrorState, FormError, Loading, useResource, useToast } from '@switchboard/web-kit';
import { pricesApi } from './prices-api.ts';
import { newRow, ownPrices, rowsOf, type Row } from './price-rows.ts';

/** The Prices dialog of provider `name`. */
export function PricesDialog({ base, name, onClose }: { base: string; name: string; onClose: () => void }) {
  const client = useMemo(() => pricesApi(base), [base]);
  const prices = useResource((signal) => client.get(name, signal), [client, name]);
  const [rows, setRows] = useState<Row[] | undefined>(undefined);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const notify = useToast();
  const formId = useId();
  const shown = rows ?? (prices.data ? rowsOf(prices.data) : undefined);
  const change = (key: number, patch: Partial<Row>) => setRows((shown ?? []).map((row) => (row.key === key ? { ...row, ...patch } : row)));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const own = ownPrices(shown ?? []);
    if (typeof own === 'string') return setError(own);
    setBusy(true);
    setError('');
    try {
      const saved = await client.save(name, own);
      notify(`Saved the prices of ${name}`);
      setRows(rowsOf(saved));
      onClose();
    } catch (reason) {
      setError((reason as Error).message);
    } finally {
      setBusy(false);
    }
  };

  let body: ReactNode;
  if (prices.error) body = <ErrorState error={prices.error} title="The prices could not be loaded" onRetry={prices.reload} />;
  else if (!prices.data || !shown) body = <Loading label="Loading the prices…" />;
  else {
    const asOf = prices.data.defaults_as_of;
    body = (
      <form id={formId} className="stack" onSubmit={save} noValidate>
        <p className="muted">
          US dollars per million tokens. A run's cost adds up its model calls at these prices; a call to a model without one makes the cost a lower bound.
          {asOf ? ` Defaults from the providers' price pages as of ${asOf}; a price you set wins.` : ' This kind of provider has no default prices.'}
        </p>
        <FormError>{error}</FormError>
        <table className="table prices">
          <thead>
            <tr>
              <th>Model</th>
              <th className="num">Input $/Mtok</th>
              <th className="num">Output $/Mtok</th>
              <th>Source</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.key}>
                <td>
                  {row.base ? (
                    row.model
                  ) : (
                    <input
                      className="input"
                      aria-label="Model"
                      value={row.model}
                      placeholder="model id"
                      onChange={(e) => change(row.key, { model: e.target.value })}
                    />
                  )}
                </td>
                {/* The input and output prices: one cell each, alike but for the column they edit. */}
                <td className="num">
                  <input
                    className="input num"
                    aria-label={`Input price of ${row.model || 'the new model'}`}
                    inputMode="decimal"
                    value={row.input}
                    onChange={(e) => change(row.key, { input: e.target.value })}
                  />
                </td>
                <td className="num">
                  <input
                    className="input num"
                    aria-label={`Output price of ${row.model || 'the new model'}`}
                    inputMode="decimal"
                    value={row.output}
                    onChange={(e) => change(row.key, { output: e.target.value })}
                  />
                </td>
                <td>{row.custom ? 'Yours' : `Default${asOf ? ` (${asOf})` : ''}`}</td>
                <td className="actions-cell">
                  {row.base ? null : (
                    <Button variant="ghost" onClick={() => setRows(shown.filter((r) => r.key !== row.key))}>
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row">
          <Button onClick={() => setRows([...shown, newRow()])}>Add model</Button>
        </div>
      </form>
    );
  }
  return (
    <Dialog
      title={`Prices of ${name}`}
      wide
      onClose={onClose}
      actions={
        <Button variant="primary" type="submit" form={formId} busy={busy} disabled={!shown}>
          Save prices
        </Button>
      }
    >
      {body}
    </Dialog>
  );
}

// The Switch node's settings: its cases (left, operator, right, then) in order, and else.
import { Button } from '@switchboard/web-kit';
import { SWITCH_OPS } from '../../../../src/domain/flow-definition.ts';
import { RefField } from '../fields.tsx';
import { str, type SettingsProps } from './settings-props.ts';

type Case = { if?: { left?: unknown; op?: unknown; right?: unknown }; then?: unknown } & Record<string, unknown>;

/** The Switch node's settings. */
export function SwitchSettings({ node, set, references, otherIds }: SettingsProps) {
  const cases = (Array.isArray(node.data.cases) ? node.data.cases : []) as Case[];
  const setCase = (index: number, next: Case, field: string) => set({ cases: cases.map((c, i) => (i === index ? next : c)) }, `cases.${index}.${field}`);
  const setCondition = (index: number, changes: Record<string, unknown>, field: string) => {
    const condition: Record<string, unknown> = { ...(cases[index].if ?? {}) };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete condition[key];
      else condition[key] = value;
    }
    setCase(index, { ...cases[index], if: condition }, field);
  };
  const targets = (current: unknown) => {
    const ids = otherIds.filter((id) => id !== node.id);
    if (typeof current === 'string' && current !== '' && !ids.includes(current)) ids.unshift(current);
    return ids;
  };
  return (
    <div className="stack">
      <div className="hint">The first case that holds chooses the branch; only that branch runs.</div>
      {cases.map((c, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a case is its place: the definition numbers cases by position (case 1, case 2) and has no id for them.
        <fieldset className="case" key={index}>
          <legend>Case {index + 1}</legend>
          <RefField
            label={`Left of case ${index + 1}`}
            value={str(c.if?.left)}
            options={references}
            onChange={(v) => setCondition(index, { left: v }, 'left')}
          />
          <label className="field">
            <span className="field-label">Operator of case {index + 1}</span>
            <select
              className="select"
              value={str(c.if?.op)}
              onChange={(e) =>
                setCondition(index, e.target.value === 'exists' ? { op: 'exists', right: undefined } : { op: e.target.value, right: c.if?.right ?? '' }, 'op')
              }
            >
              {SWITCH_OPS.map((op) => (
                <option key={op} value={op}>
                  {op}
                </option>
              ))}
            </select>
          </label>
          {c.if?.op === 'exists' ? null : (
            <RefField
              label={`Right of case ${index + 1}`}
              value={str(c.if?.right)}
              options={references}
              onChange={(v) => setCondition(index, { right: v }, 'right')}
            />
          )}
          <label className="field">
            <span className="field-label">Then (case {index + 1})</span>
            <select className="select" value={str(c.then)} onChange={(e) => setCase(index, { ...c, then: e.target.value }, 'then')}>
              <option value="">Not wired</option>
              {targets(c.then).map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
          <div>
            <Button small variant="danger" onClick={() => set({ cases: cases.filter((_c, i) => i !== index) }, 'cases.remove')}>
              Remove case {index + 1}
            </Button>
          </div>
        </fieldset>
      ))}
      <div>
        <Button small onClick={() => set({ cases: [...cases, { if: { left: '', op: 'equals', right: '' }, then: '' }] }, 'cases.add')}>
          Add case
        </Button>
      </div>
      <label className="field">
        <span className="field-label">Else</span>
        <select className="select" value={str(node.data.else)} onChange={(e) => set({ else: e.target.value === '' ? undefined : e.target.value }, 'else')}>
          <option value="">None (nothing runs)</option>
          {targets(node.data.else).map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

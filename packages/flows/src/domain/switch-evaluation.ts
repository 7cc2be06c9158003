import type { SwitchCondition, SwitchNodeData } from './flow-definition.ts';
import { resolveValue, type Scope } from './references.ts';

/** Loose equality for routing: same JSON, or the same text when one side is a string and the other a scalar. */
function same(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (left === undefined || right === undefined || left === null || right === null) return false;
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  if (scalar(left) && scalar(right)) return String(left) === String(right);
  return JSON.stringify(left) === JSON.stringify(right);
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Whether a condition holds, given already-resolved sides. */
export function compare(op: SwitchCondition['op'], left: unknown, right: unknown): boolean {
  switch (op) {
    case 'equals':
      return same(left, right);
    case 'not_equals':
      return !same(left, right);
    case 'contains':
      if (typeof left === 'string') return right !== undefined && right !== null && left.includes(String(right));
      if (Array.isArray(left)) return left.some((item) => same(item, right));
      if (left && typeof left === 'object') return typeof right === 'string' && Object.hasOwn(left, right);
      return false;
    case 'matches': {
      if (left === undefined || left === null || typeof right !== 'string') return false;
      try {
        return new RegExp(right).test(typeof left === 'string' ? left : JSON.stringify(left));
      } catch {
        return false;
      }
    }
    case 'gt':
    case 'lt': {
      const a = toNumber(left);
      const b = toNumber(right);
      if (a === undefined || b === undefined) return false;
      return op === 'gt' ? a > b : a < b;
    }
    case 'exists':
      return left !== undefined && left !== null && left !== '';
  }
}

/** Evaluates one condition against the run's scope (single references keep their type). */
export function evaluateCondition(condition: SwitchCondition, scope: Scope): boolean {
  return compare(condition.op, resolveValue(condition.left, scope), resolveValue(condition.right, scope));
}

/** The branch (target node id) a switch chooses, or null when no case matches and there is no `else`. */
export function chooseBranch(data: SwitchNodeData, scope: Scope): string | null {
  for (const entry of data.cases) if (evaluateCondition(entry.if, scope)) return entry.then;
  return data.else ?? null;
}

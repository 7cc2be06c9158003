/** Wait before the next attempt after `attempt` failed ones (1-based): base, 2×base, 4×base… */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

import type { Suite } from './context.ts';

/** Flow execution scenarios (filled in with the flow service). */
export const benchFlows: Suite = async () => [];

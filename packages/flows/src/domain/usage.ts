/** Token counts of a run: the shape every answer, record and statistic uses. Pure. */

/** Token counts in OpenAI's names, summed over every model call of a run. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The usage of a call from its prompt and completion token counts (0 when unknown), total computed. */
export function usageOf(prompt?: number, completion?: number): Usage {
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

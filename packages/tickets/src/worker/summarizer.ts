import OpenAI from 'openai';
import { isolatedOpenAIOptions } from '@switchboard/core';
import { extractiveSummary, clip } from '../domain/text-rules.ts';

/** What a summary is made from. */
export interface SummaryInput {
  key: string;
  title: string;
  description: string;
  latestComment?: string;
}

/** A summary and how it was made. */
export interface Summary {
  text: string;
  source: 'llm' | 'extractive';
}

/** Makes ticket summaries. */
export interface Summarizer {
  summarize(input: SummaryInput): Promise<Summary>;
}

/** Summaries without a model: the title and the first sentences of the description. */
export const extractiveSummarizer: Summarizer = {
  async summarize(input) {
    return { text: extractiveSummary(input.title, input.description, input.latestComment), source: 'extractive' };
  },
};

const SYSTEM_PROMPT =
  'You summarize tickets of a software project board. Answer with one or two plain sentences (at most 200 characters) saying what the ticket is about and its current state. No preamble, no markdown.';

/** Summaries from any OpenAI-compatible chat completions server (official `openai` client). */
export function llmSummarizer(options: { baseUrl: string; model: string; apiKey: string | undefined; timeoutMs: number }): Summarizer {
  // Local servers (Ollama, vLLM, llama.cpp) need no key: then no Authorization header is sent.
  const client = new OpenAI({ ...isolatedOpenAIOptions(options.baseUrl, options.apiKey), timeout: options.timeoutMs, maxRetries: 1 });
  return {
    async summarize(input) {
      const parts = [`Ticket ${input.key}: ${input.title}`, '', clip(input.description, 8000).text];
      if (input.latestComment) parts.push('', `Latest comment: ${clip(input.latestComment, 2000).text}`);
      const completion = await client.chat.completions.create({
        model: options.model,
        temperature: 0.2,
        max_tokens: 160,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: parts.join('\n') },
        ],
      });
      const text = completion.choices[0]?.message?.content?.replace(/\s+/g, ' ').trim();
      if (!text) throw new Error('the model returned an empty summary');
      return { text: clip(text, 1000).text, source: 'llm' };
    },
  };
}

import { api } from '@switchboard/web-kit';

/** One ready-made snippet for calling a flow. */
export interface Snippet {
  id: string;
  title: string;
  language: string;
  code: string;
}

/** `GET …/flows/{slug}/snippets`. */
export interface SnippetsAnswer {
  /** The environment variable the snippets read the token from. */
  token_variable: string;
  snippets: Snippet[];
}

/** A flow's input schema and snippets, of the organization whose API is at `base`. */
export function flowApi(base: string, slug: string) {
  const flow = `${base}/flows/${encodeURIComponent(slug)}`;
  return {
    schema: (signal?: AbortSignal) => api<Record<string, unknown>>(`${flow}/schema`, { signal }),
    snippets: (signal?: AbortSignal) => api<SnippetsAnswer>(`${flow}/snippets`, { signal }),
  };
}

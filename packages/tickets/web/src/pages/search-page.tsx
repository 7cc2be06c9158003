import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Badge, Button, EmptyState, ErrorState, Loading, PageHeader, useResource, useTitle } from '@switchboard/web-kit';
import type { SearchResult } from '../api/types.ts';
import { useLiveChanges, useProject } from '../project-context.tsx';
import { paths } from '../routes.ts';
import { snippetParts } from '../search/snippet.ts';

const SCOPES = [
  { value: 'all', label: 'Tickets and documents' },
  { value: 'tickets', label: 'Tickets' },
  { value: 'documents', label: 'Documents' },
];

/** **Search**: tickets and documents, best first, with the matches highlighted; the query is in the URL. */
export default function SearchPage() {
  const project = useProject();
  const [query, setQuery] = useSearchParams();
  const q = query.get('q') ?? '';
  const scope = query.get('scope') ?? 'all';
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  useTitle(q ? `Search: ${q}` : 'Search', `${project.key} · Switchboard Tickets`);
  const results = useResource<{ results: SearchResult[] } | undefined>(
    (signal) => (q.trim() ? project.api.search(q.trim(), scope, signal) : Promise.resolve(undefined)),
    [project.key, q, scope],
  );
  useLiveChanges({ changes: () => q.trim() && results.reload() });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery((current) => {
      const next = new URLSearchParams(current);
      if (text.trim()) next.set('q', text.trim());
      else next.delete('q');
      return next;
    });
  };

  return (
    <>
      <PageHeader title="Search" />
      <search>
        <form className="search-form" onSubmit={submit}>
          {/* A search box: its attributes are alike other search boxes', with its own label, state and focus. */}
          <input
            className="input"
            type="search"
            aria-label="Search"
            placeholder="Words in titles, descriptions and documents"
            value={text}
            onChange={(e) => setText(e.target.value)}
            // biome-ignore lint/a11y/noAutofocus: the user came to the search page to type a query; its box is the page's one control.
            autoFocus
          />
          <select
            className="select"
            aria-label="Scope"
            value={scope}
            onChange={(event) =>
              setQuery((current) => {
                const next = new URLSearchParams(current);
                next.set('scope', event.target.value);
                return next;
              })
            }
          >
            {SCOPES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
          <Button type="submit" variant="primary">
            Search
          </Button>
        </form>
      </search>
      {!q.trim() ? (
        <EmptyState title="Search the project">
          All words must match; the start of a word is enough (check finds checkout). Titles count more than descriptions.
        </EmptyState>
      ) : results.error ? (
        <ErrorState error={results.error} onRetry={results.reload} />
      ) : !results.data ? (
        <Loading label="Searching…" />
      ) : results.data.results.length === 0 ? (
        <EmptyState title="Nothing found">No ticket or document matches “{q}”. Try fewer or shorter words.</EmptyState>
      ) : (
        <ol className="search-results" aria-label="Results">
          {results.data.results.map((result) => (
            <li key={result.kind === 'ticket' ? `t:${result.key}` : `d:${result.slug}`} className="search-result">
              <div className="row">
                <Badge kind={result.kind === 'ticket' ? 'accent' : undefined}>{result.kind === 'ticket' ? result.ticket_type : result.doc_type}</Badge>
                {result.kind === 'ticket' ? (
                  <Link to={paths.ticket(result.key)} className="result-title">
                    <span className="mono faint">{result.key}</span> {result.title}
                  </Link>
                ) : (
                  <Link to={paths.document(project.key, result.slug)} className="result-title">
                    {result.title}
                  </Link>
                )}
                {result.kind === 'ticket' && result.column ? <span className="faint">in {result.column}</span> : null}
              </div>
              <p className="snippet">
                {/* biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet, made anew with it and never reordered; the same text may come twice, so a part's place is its identity. */}
                {snippetParts(result.snippet).map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
              </p>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

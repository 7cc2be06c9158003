// How the console says a 422 in words (pure: its unit test runs in Node).

/** One problem of a 422, as the service words it (pydantic's shape). */
export interface Issue {
  loc?: Array<string | number>;
  msg?: string;
}

/** A 422's problems in words: each field and what is wrong with it (the service says "Value error, …" before a rule's own words). */
export function describeIssues(issues: Issue[]): string {
  return issues
    .map((issue) => {
      const msg = (issue.msg ?? 'is not valid').replace(/^Value error, /, '');
      const field = issue.loc?.slice(1).join('.');
      return field && !msg.includes(`'${field}'`) ? `${field.replace(/_/g, ' ')}: ${msg}` : msg;
    })
    .join('; ');
}

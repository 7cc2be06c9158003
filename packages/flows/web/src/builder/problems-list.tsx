// The **Problems** list: every problem of the flow, by node, from the check as you edit and from the server's 422.
import { useId } from 'react';
import { useBuilder } from './use-builder.ts';

/** The Problems list; choosing a problem shows its node. */
export function ProblemsList({ onShow }: { onShow: (nodeId: string) => void }) {
  const problems = useBuilder((s) => s.problems.list);
  const headingId = useId();
  return (
    <section className="problems" aria-labelledby={headingId}>
      <h2 className="panel-heading" id={headingId}>
        Problems {problems.length > 0 ? <span className="badge danger">{problems.length}</span> : null}
      </h2>
      {/* biome-ignore lint/a11y/noRedundantRoles: Safari drops a list's semantics when its markers are styled away; the role keeps it a list. */}
      <ul role="list" aria-label="Problems" className="plain-list problem-list">
        {problems.map((problem, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: problems are recomputed as a whole, and two may name the same field.
          <li key={`${problem.param}:${index}`} className={problem.fromServer ? 'from-server' : undefined}>
            {problem.node ? (
              <button type="button" className="problem" onClick={() => onShow(problem.node!)}>
                <span className="problem-node mono">{problem.node}</span>
                <span className="problem-message">{problem.message}</span>
                {problem.fromServer ? <span className="badge warning">on save</span> : null}
              </button>
            ) : (
              <div className="problem">
                <span className="problem-node mono">flow</span>
                <span className="problem-message">{problem.message}</span>
                {problem.fromServer ? <span className="badge warning">on save</span> : null}
              </div>
            )}
          </li>
        ))}
      </ul>
      {problems.length === 0 ? <p className="faint small">No problems found.</p> : null}
    </section>
  );
}

// What each model call of an LLM node was sent, as the run's trace recorded it (after templating, secrets masked).
import type { ModelCall } from '../api/types.ts';

/** A details block per node: each model call's messages in order, with their role, tool calls and tool results. */
export function SentMessages({ node, calls }: { node: string; calls: ModelCall[] }) {
  return (
    <details className="timeline-details">
      <summary>
        Messages sent ({calls.length} model {calls.length === 1 ? 'call' : 'calls'})
      </summary>
      {calls.map((call, index) => (
        // A call's place in the run is its identity: the trace never reorders them.
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed order
        <div key={index} className="sent-call">
          {calls.length > 1 ? <div className="field-label">Call {index + 1}</div> : null}
          <ol className="plain-list sent-messages" aria-label={`Messages of call ${index + 1} of ${node}`}>
            {call.messages.map((message, at) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed order
              <li key={at} className={`sent-message role-${message.role}`}>
                <span className="sent-role">{message.role === 'tool' ? `tool ${message.tool ?? ''}`.trim() : message.role}</span>
                {message.content ? <div className="sent-content">{message.content}</div> : null}
                {(message.tool_calls ?? []).map((toolCall) => (
                  <div key={toolCall.call_id} className="sent-content mono">
                    calls {toolCall.tool}({JSON.stringify(toolCall.args)})
                  </div>
                ))}
              </li>
            ))}
          </ol>
        </div>
      ))}
    </details>
  );
}

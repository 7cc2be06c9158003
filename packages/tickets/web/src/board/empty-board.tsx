import { Link } from 'react-router-dom';
import { Button } from '@switchboard/web-kit';
import { useProject } from '../project-context.tsx';
import { paths } from '../routes.ts';

/** A project without tickets: create one here, or connect an AI agent that plans the work over MCP. */
export function EmptyBoard({ onNewTicket }: { onNewTicket: () => void }) {
  const { key } = useProject();
  return (
    <div className="empty-board card">
      <div className="card-body">
        <h2>No tickets yet</h2>
        <div className="empty-board-grid">
          <div>
            <h3>Add work yourself</h3>
            <p className="muted">
              Press <kbd>c</kbd> or use <strong>New ticket</strong>. Feature work is an epic with sub-tickets; the epic advances as its sub-tickets do.
            </p>
            <Button variant="primary" onClick={onNewTicket}>
              New ticket
            </Button>
          </div>
          <div>
            <h3>Connect an AI agent</h3>
            <p className="muted">
              Create a token under <Link to={paths.settings(key, 'mcp')}>Settings → MCP Connection</Link> and paste the snippet for Claude Code, Cursor or VS
              Code. The agent's first call is <code className="inline-code">get_project_status</code>; its tickets, moves and comments appear here as they
              happen.
            </p>
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * The spec's conventions for AI clients, sent as the MCP `instructions` of
 * `initialize` (clients put them into the model's context).
 */
export const MCP_INSTRUCTIONS = `Switchboard ticket board: this project's work as tickets in columns (epics with sub-tickets), plus wiki/documentation pages. Follow these conventions:

1. The first call of every session is get_project_status. Column names come from its response (or from list_columns); never guess them.
2. Feature work is an epic with sub-tickets. Search first (list_tickets or search). If a related epic exists, add to it with create_sub_ticket; otherwise create_ticket with ticket_type "epic", then create its sub-tickets under it. No standalone tickets for feature work.
3. Only sub-tickets are moved (move_ticket); epics advance automatically: when work starts on a sub-ticket the epic moves to In Progress, when all sub-tickets are done the epic moves to the done column.
4. Create tickets directly in the right column through column_name (case-insensitive).
5. Call add_comment after any update, move or completed work, with a summary, the files changed and the functions or classes modified.
6. A bug report reopens the completed sub-ticket that implemented the feature: move it back to the active column (e.g. "In Progress"), comment, fix, then complete it again. Create a new bug ticket only when nothing related exists.
7. Importing history: create_ticket and create_sub_ticket take created_at (ISO 8601) to backdate, and a done-column column_name for finished work.

Answers stay under 40,000 characters however large the project. On a large project get_project_status lists only the most recent tickets of a column whose index says "index_truncated": true (its ticket_count is exact); list_tickets with column_name shows all of them. list_tickets, get_all_tickets, list_documents and list_members answer next_cursor: while it is not null, call again with the same arguments and cursor set to it to get the next page.

Ticket ids accept the key (e.g. DEMO-12, any case), the number (12) or the UUID. Errors say how to fix the call and list valid values.`;

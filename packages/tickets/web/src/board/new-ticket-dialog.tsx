import { FormDialog, form } from '@switchboard/web-kit';
import { PRIORITIES, TICKET_TYPES, type BoardCard, type Ticket } from '../api/types.ts';
import { MarkdownEditor } from '../markdown/markdown-editor.tsx';
import { useProject } from '../project-context.tsx';

const choices = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** **New ticket**: title, description, type, priority, column, parent (an epic of this board). */
export function NewTicketDialog({
  columns,
  defaultColumn,
  epics,
  qualify,
  onClose,
  onCreated,
}: {
  columns: string[];
  defaultColumn: string | undefined;
  epics: BoardCard[];
  /** The column name as the API takes it (qualified with the board when it is not the first board). */
  qualify: (column: string) => string;
  onClose: () => void;
  onCreated: (ticket: Ticket) => void;
}) {
  const { api } = useProject();
  const spec = form({
    title: 'New ticket',
    submitLabel: 'Create ticket',
    wide: true,
    initial: { title: '', description: '', type: 'task', priority: 'medium', column: defaultColumn ?? columns[0] ?? '', parent: '' },
    fields: () => [
      { name: 'title', label: 'Title', maxLength: 500, required: true, autoFocus: true, placeholder: 'What needs doing' },
      {
        kind: 'custom',
        name: 'description',
        render: (values, set) => (
          <MarkdownEditor
            label="Description"
            value={values.description}
            onChange={(description) => set({ description })}
            rows={6}
            placeholder="The what and why, acceptance criteria (Markdown)"
          />
        ),
      },
      [
        { name: 'type', label: 'Type', kind: 'select', options: choices(TICKET_TYPES) },
        { name: 'priority', label: 'Priority', kind: 'select', options: choices(PRIORITIES) },
        { name: 'column', label: 'Column', kind: 'select', options: choices(columns) },
        {
          name: 'parent',
          label: 'Parent',
          kind: 'select',
          placeholder: 'None',
          options: epics.map((epic) => ({ value: epic.key, label: `${epic.key} ${epic.title}` })),
          hint: epics.length === 0 ? 'No epic on this board yet' : undefined,
        },
      ],
    ],
    check: (values) => (values.title.trim() ? undefined : 'Give the ticket a title.'),
    submit: (values) => {
      const body = {
        title: values.title.trim(),
        description: values.description,
        ticket_type: values.type,
        priority: values.priority,
        column_name: values.column ? qualify(values.column) : undefined,
      };
      // A parent makes it a sub-ticket (create_sub_ticket); a sub-ticket cannot be an epic, as the service says if asked.
      return values.parent ? api.createSubTicket(values.parent, body) : api.createTicket(body);
    },
  });
  return <FormDialog spec={spec} onClose={onClose} onDone={onCreated} />;
}

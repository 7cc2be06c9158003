import { z } from 'zod';

/**
 * The `toggle_task` parameter of update_ticket and update_document: checks or unchecks one task list item,
 * changing that line only, so a click on a checkbox never overwrites an edit made meanwhile.
 */
export function toggleTaskParam(text: 'description' | 'content') {
  return z
    .strictObject({
      line: z
        .number()
        .int()
        .min(1, { error: () => 'must be 1 or more (the first line is 1)' })
        .max(1_000_000)
        .describe(`1-based number of the task line in the ${text} as you read it.`),
      expected: z.string().min(1).max(100_000).describe('That line exactly as you read it, e.g. "- [ ] Write the docs" (indentation included).'),
      checked: z.boolean().describe('true checks the item ([x]), false unchecks it ([ ]).'),
      seen_updated_at: z
        .string()
        .describe('The updated_at you read the text at (optional): when it is still current, the line number decides between identical lines.')
        .optional(),
    })
    .describe(
      `Check or uncheck one task list item ("- [ ] …") of the ${text} instead of sending the whole ${text}: only that line changes. When the ${text} was edited meanwhile, the line is found where it moved (if it appears exactly once); if it was changed, removed or now appears several times, the call is refused (409 over REST) with what the line reads now, and nothing changes. Not together with ${text}.`,
    );
}

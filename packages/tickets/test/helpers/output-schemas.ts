import { Ajv } from '@modelcontextprotocol/server/validators/ajv';
import { z } from 'zod';
import { TOOLS } from '../../src/index.ts';

// A JSON Schema validator of its own (Ajv), apart from the one in the SDK clients, checks each answer against two
// forms of its tool's schema: the outputSchema the server lists (open objects), and the same schema closed (no
// field beyond those it names), so that a presenter adding a field without the schema fails here.
const ajv = new Ajv({ strict: false, allErrors: true });
const closed = new Map(
  TOOLS.map((tool) => {
    const schema = z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    delete schema.$schema;
    return [tool.name, ajv.compile(schema)];
  }),
);
const listed = new Map<string, ReturnType<typeof ajv.compile>>();

/** The problems of a tool's answer against its closed output schema and, when given, the outputSchema a server listed; empty when it validates. */
export function outputSchemaProblems(name: string, structured: unknown, listedSchema?: object): string[] {
  const problems: string[] = [];
  const check = (validate: ReturnType<typeof ajv.compile> | undefined, form: string) => {
    if (!validate) return problems.push(`${name}: no ${form} schema`);
    if (!validate(structured)) problems.push(...(validate.errors ?? []).map((error) => `${name} (${form}): ${error.instancePath || '/'} ${error.message}`));
  };
  check(closed.get(name), 'closed');
  if (listedSchema) {
    const key = `${name} ${JSON.stringify(listedSchema)}`;
    if (!listed.has(key)) listed.set(key, ajv.compile(listedSchema));
    check(listed.get(key), 'listed');
  }
  return problems;
}

// The HTTP tool's and the MCP tool's settings.
import { SelectField, TextField } from '@switchboard/web-kit';
import { JsonField, NumberField, PairsField, RefField } from '../fields.tsx';
import { secretOptions } from '../references.ts';
import { str, type SettingsProps } from './settings-props.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The HTTP tool's settings: what the model sees (name, description, parameters) and the request it makes. */
export function HttpToolSettings({ node, set, references, choices }: SettingsProps) {
  const data = node.data;
  // Secrets may go in the request (URL, headers, body) and nowhere else.
  const withSecrets = [...references, ...secretOptions(choices.secrets)];
  const request = (isObject(data.request) ? data.request : {}) as Record<string, unknown>;
  const setRequest = (changes: Record<string, unknown>, field: string) => {
    const next = { ...request };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    set({ request: next }, `request.${field}`);
  };
  const method = str(request.method) || 'GET';
  return (
    <div className="stack">
      <TextField
        label="Name"
        className="code"
        value={str(data.name)}
        hint="The tool's name for the model: letters, digits, _ and -"
        onChange={(e) => set({ name: e.target.value }, 'name')}
      />
      <TextField
        label="Description"
        value={str(data.description)}
        hint="Tells the model when to call it"
        onChange={(e) => set({ description: e.target.value || undefined }, 'description')}
      />
      <JsonField
        label="Parameters (JSON Schema)"
        value={data.parameters}
        rows={5}
        check={(v) => (isObject(v) && v.type === 'object' ? undefined : 'Must be a JSON Schema of type "object"')}
        onChange={(v) => set({ parameters: v }, 'parameters')}
      />
      <SelectField
        label="Method"
        value={method}
        options={(METHODS.includes(method) ? METHODS : [method, ...METHODS]).map((m) => ({ value: m, label: m }))}
        onChange={(e) => setRequest({ method: e.target.value }, 'method')}
      />
      {/* Field declarations: each setting's field, alike in shape, bound to its own key. */}
      <RefField
        label="URL"
        value={str(request.url)}
        options={withSecrets}
        hint="{{args.NAME}} for the model's arguments, {{secrets.NAME}} for a secret"
        onChange={(v) => setRequest({ url: v }, 'url')}
      />
      <PairsField
        label="Headers"
        addLabel="Add header"
        value={isObject(request.headers) ? request.headers : undefined}
        options={withSecrets}
        onChange={(v) => setRequest({ headers: v }, 'headers')}
      />
      <JsonField
        label="Body (JSON)"
        value={request.body}
        rows={4}
        options={withSecrets}
        hint="Strings in it may use {{args.NAME}}, other references and {{secrets.NAME}}"
        onChange={(v) => setRequest({ body: v }, 'body')}
      />
      <div className="grid-2">
        <NumberField label="Timeout (ms)" value={data.timeout_ms} integer min={1} max={300000} onChange={(v) => set({ timeout_ms: v }, 'timeout_ms')} />
        <NumberField
          label="Max response bytes"
          value={data.max_response_bytes}
          integer
          min={1}
          onChange={(v) => set({ max_response_bytes: v }, 'max_response_bytes')}
        />
      </div>
    </div>
  );
}

/** The MCP tool's settings: the server (Streamable HTTP), its headers and which of its tools to offer. */
export function McpToolSettings({ node, set, references, choices }: SettingsProps) {
  const data = node.data;
  const allow = Array.isArray(data.allow) ? (data.allow as unknown[]).map(String).join(', ') : '';
  return (
    <div className="stack">
      <RefField
        label="URL"
        value={str(data.url)}
        options={references}
        hint="The MCP server's Streamable HTTP endpoint"
        onChange={(v) => set({ url: v }, 'url')}
      />
      <PairsField
        label="Headers"
        addLabel="Add header"
        value={isObject(data.headers) ? data.headers : undefined}
        options={[...references, ...secretOptions(choices.secrets)]}
        onChange={(v) => set({ headers: v }, 'headers')}
      />
      <TextField
        label="Allowed tools"
        className="code"
        value={allow}
        hint="Comma-separated tool names; empty offers every tool of the server"
        onChange={(e) => {
          const names = e.target.value.split(',').map((n) => n.trim());
          set({ allow: e.target.value.trim() === '' ? undefined : names.filter((n, i) => n !== '' || i === names.length - 1) }, 'allow');
        }}
      />
      <NumberField label="Timeout (ms)" value={data.timeout_ms} integer min={1} max={300000} onChange={(v) => set({ timeout_ms: v }, 'timeout_ms')} />
    </div>
  );
}

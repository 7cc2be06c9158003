import type { InputVariable, OutputFormat } from './flow-definition.ts';
import { chatVariable, exampleInput } from './input-variables.ts';

/** One ready-made snippet for calling a flow. */
export interface Snippet {
  id: string;
  title: string;
  language: string;
  code: string;
}

/** Where and how a flow is called. The token is left as an environment variable, never embedded. */
export interface SnippetTarget {
  baseUrl: string;
  orgCode: string;
  slug: string;
  variables: InputVariable[];
  format: OutputFormat;
}

const TOKEN_ENV = 'SWITCHBOARD_TOKEN';

/** A JSON value written as a Python literal (True, False, None). */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
    .join(', ')}}`;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Snippets derived from the Input node: curl, JavaScript fetch, Python requests, OpenAI SDK for JS and Python, with streaming variants. */
export function buildSnippets(target: SnippetTarget): Snippet[] {
  const flowUrl = `${target.baseUrl}/api/llm/${target.orgCode}/flows/${target.slug}`;
  const input = exampleInput(target.variables);
  const body = JSON.stringify({ input });
  const streamBody = JSON.stringify({ input, stream: true });
  const pretty = JSON.stringify({ input }, null, 2);
  const chatVar = chatVariable(target.variables);
  const question = chatVar ? String(input[chatVar] ?? 'Hello') : 'Hello';
  const others = Object.fromEntries(Object.entries(input).filter(([k]) => k !== chatVar));
  const extraJs = Object.keys(others).length > 0 ? `\n  // other Input variables travel in "input"\n  input: ${JSON.stringify(others)},` : '';
  const extraPy = Object.keys(others).length > 0 ? `\n    extra_body={"input": ${pythonLiteral(others)}},` : '';
  const readJs = target.format === 'raw' ? 'await response.text()' : 'await response.json()';
  const readPy = target.format === 'raw' ? 'response.text' : 'response.json()';
  return [
    {
      id: 'curl',
      title: 'curl',
      language: 'shell',
      code: `curl ${flowUrl}/run \\\n  -H "Authorization: Bearer $${TOKEN_ENV}" \\\n  -H "Content-Type: application/json" \\\n  -d ${shellQuote(body)}`,
    },
    {
      id: 'curl-stream-sse',
      title: 'curl (Server-Sent Events)',
      language: 'shell',
      code: `curl -N ${flowUrl}/run/stream \\\n  -H "Authorization: Bearer $${TOKEN_ENV}" \\\n  -H "Content-Type: application/json" \\\n  -d ${shellQuote(body)}`,
    },
    {
      id: 'curl-stream-jsonl',
      title: 'curl (JSON Lines)',
      language: 'shell',
      code: `curl -N ${flowUrl}/run \\\n  -H "Authorization: Bearer $${TOKEN_ENV}" \\\n  -H "Content-Type: application/json" \\\n  -d ${shellQuote(streamBody)}`,
    },
    {
      id: 'javascript-fetch',
      title: 'JavaScript (fetch)',
      language: 'javascript',
      code: `const response = await fetch('${flowUrl}/run', {\n  method: 'POST',\n  headers: { Authorization: \`Bearer \${process.env.${TOKEN_ENV}}\`, 'Content-Type': 'application/json' },\n  body: JSON.stringify(${pretty.replace(/\n/g, '\n  ')}),\n});\nif (!response.ok) throw new Error((await response.json()).error.message);\nconsole.log(${readJs});`,
    },
    {
      id: 'javascript-fetch-stream',
      title: 'JavaScript (fetch, JSON Lines stream)',
      language: 'javascript',
      code: `const response = await fetch('${flowUrl}/run', {\n  method: 'POST',\n  headers: { Authorization: \`Bearer \${process.env.${TOKEN_ENV}}\`, 'Content-Type': 'application/json' },\n  body: JSON.stringify({ input: ${JSON.stringify(input)}, stream: true }),\n});\nconst decoder = new TextDecoder();\nlet buffer = '';\nfor await (const chunk of response.body) {\n  buffer += decoder.decode(chunk, { stream: true });\n  let newline;\n  while ((newline = buffer.indexOf('\\n')) >= 0) {\n    const event = JSON.parse(buffer.slice(0, newline));\n    buffer = buffer.slice(newline + 1);\n    if (event.type === 'delta') process.stdout.write(event.content);\n    if (event.type === 'error') throw new Error(event.error.message);\n  }\n}`,
    },
    {
      id: 'python-requests',
      title: 'Python (requests)',
      language: 'python',
      code: `import os\nimport requests\n\nresponse = requests.post(\n    "${flowUrl}/run",\n    headers={"Authorization": f"Bearer {os.environ['${TOKEN_ENV}']}"},\n    json=${pythonLiteral({ input })},\n    timeout=120,\n)\nresponse.raise_for_status()\nprint(${readPy})`,
    },
    {
      id: 'python-requests-stream',
      title: 'Python (requests, JSON Lines stream)',
      language: 'python',
      code: `import json\nimport os\nimport requests\n\nwith requests.post(\n    "${flowUrl}/run",\n    headers={"Authorization": f"Bearer {os.environ['${TOKEN_ENV}']}"},\n    json=${pythonLiteral({ input, stream: true })},\n    stream=True,\n    timeout=120,\n) as response:\n    response.raise_for_status()\n    for line in response.iter_lines():\n        event = json.loads(line)\n        if event["type"] == "delta":\n            print(event["content"], end="", flush=True)`,
    },
    {
      id: 'openai-javascript',
      title: 'OpenAI SDK (JavaScript)',
      language: 'javascript',
      code: `import OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: '${flowUrl}', apiKey: process.env.${TOKEN_ENV} });\nconst completion = await client.chat.completions.create({\n  model: 'service-flow',\n  messages: [{ role: 'user', content: ${JSON.stringify(question)} }],${extraJs}\n});\nconsole.log(completion.choices[0].message.content);`,
    },
    {
      id: 'openai-javascript-stream',
      title: 'OpenAI SDK (JavaScript, streaming)',
      language: 'javascript',
      code: `import OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: '${flowUrl}', apiKey: process.env.${TOKEN_ENV} });\nconst stream = await client.chat.completions.create({\n  model: 'service-flow',\n  messages: [{ role: 'user', content: ${JSON.stringify(question)} }],${extraJs}\n  stream: true,\n});\nfor await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');`,
    },
    {
      id: 'openai-python',
      title: 'OpenAI SDK (Python)',
      language: 'python',
      code: `import os\nfrom openai import OpenAI\n\nclient = OpenAI(base_url="${flowUrl}", api_key=os.environ["${TOKEN_ENV}"])\ncompletion = client.chat.completions.create(\n    model="service-flow",\n    messages=[{"role": "user", "content": ${JSON.stringify(question)}}],${extraPy}\n)\nprint(completion.choices[0].message.content)`,
    },
    {
      id: 'openai-python-stream',
      title: 'OpenAI SDK (Python, streaming)',
      language: 'python',
      code: `import os\nfrom openai import OpenAI\n\nclient = OpenAI(base_url="${flowUrl}", api_key=os.environ["${TOKEN_ENV}"])\nstream = client.chat.completions.create(\n    model="service-flow",\n    messages=[{"role": "user", "content": ${JSON.stringify(question)}}],${extraPy}\n    stream=True,\n)\nfor chunk in stream:\n    print(chunk.choices[0].delta.content or "", end="", flush=True)`,
    },
  ];
}

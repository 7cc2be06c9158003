import type { RetrievalNodeData } from '../domain/flow-definition.ts';
import { renderTemplate } from '../domain/references.ts';
import type { NodeContext, NodeResult } from './node-handler.ts';

const DEFAULT_TOP_K = 4;

/** `retrieval`: the top-k chunks of a knowledge base for the rendered query; `text` joins them, `chunks` lists them with source and score. */
export async function runRetrievalNode(context: NodeContext): Promise<NodeResult> {
  const data = context.node.data as unknown as RetrievalNodeData;
  const services = context.services;
  const query = renderTemplate(data.query, context.scope);
  const chunks = await services.knowledge.search(
    { id: services.orgId, providersVersion: services.providersVersion },
    data.knowledge_base,
    query,
    data.top_k ?? DEFAULT_TOP_K,
    context.signal,
  );
  const text = chunks.map((c) => c.text).join('\n\n---\n\n');
  return { output: { text, chunks }, text };
}

import type { FastifyReply } from 'fastify';
import type { AppError } from '@switchboard/core';
import { presentError } from '../domain/error-shape.ts';
import { chatChunk, chatCompletion, replyContent } from '../domain/response-shapes.ts';
import type { RunEvent } from '../engine/node-handler.ts';
import { ClientGone } from '../engine/run-errors.ts';
import type { RunningFlow, RunPlan, RunService } from '../engine/run-service.ts';
import { openStream } from './stream-writer.ts';

/** How a run's answer goes out. */
export type ResponseMode = 'json' | 'jsonl' | 'sse' | 'chat';

/**
 * Runs a validated plan and answers in the given mode: `json` (the Output
 * node's shape), `chat` (always a ChatCompletion, for the OpenAI endpoint),
 * `jsonl` (JSON Lines events) or `sse` (chat.completion.chunk events).
 */
export async function answerRun(service: RunService, plan: RunPlan, reply: FastifyReply, mode: ResponseMode): Promise<void> {
  const ids = service.newIds();
  // A traced run answers with its own `traceparent`, so the caller can find it in its trace.
  const trace = service.openTrace(plan, ids);
  if (trace) reply.header('traceparent', trace.traceparent());
  if (mode === 'json' || mode === 'chat') {
    const running = service.start(plan, { ids, streaming: false, emit: () => undefined, trace });
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) running.abort(new ClientGone());
    });
    const outcome = await running.outcome;
    reply.header('x-run-id', ids.runId);
    if (!outcome.ok) throw outcome.error;
    const format = plan.flow.compiled.output.format;
    if (mode === 'chat') {
      const content = replyContent(format, outcome.result.text, outcome.result.value);
      reply.type('application/json; charset=utf-8').send(chatCompletion(ids.completionId, ids.created, content, outcome.result.finishReason, outcome.usage));
      return;
    }
    if (format === 'raw') reply.type('text/plain; charset=utf-8').send(outcome.output as string);
    else reply.type('application/json; charset=utf-8').send(JSON.stringify(outcome.output));
    return;
  }

  const format = plan.flow.compiled.output.format;
  const headers: Record<string, string> = trace ? { 'x-run-id': ids.runId, traceparent: trace.traceparent() } : { 'x-run-id': ids.runId };
  let running: RunningFlow | undefined;
  let gone = false;
  const onGone = () => {
    gone = true;
    running?.abort(new ClientGone());
  };
  // Recorded before the first byte, which carries X-Run-Id: the id is found even if this instance dies mid-run.
  const startedAt = await service.recordStart(plan, ids);
  if (mode === 'jsonl') {
    const stream = openStream(reply, 'application/x-ndjson; charset=utf-8', headers, onGone);
    const line = (value: unknown) => stream.write(`${JSON.stringify(value)}\n`);
    line({ type: 'run', run_id: ids.runId, flow: plan.flow.slug, version: plan.flow.version });
    running = service.start(plan, { ids, streaming: true, emit: (event) => line(event), startedAt, trace });
    if (gone) running.abort(new ClientGone());
    const outcome = await running.outcome;
    if (outcome.ok) line({ type: 'done', output: outcome.output, usage: outcome.usage });
    else line({ type: 'error', ...presentError(outcome.error) });
    stream.end();
    return;
  }

  const stream = openStream(reply, 'text/event-stream; charset=utf-8', headers, onGone);
  const data = (value: unknown) => stream.write(`data: ${JSON.stringify(value)}\n\n`);
  let first = true;
  const delta = (content: string) => {
    data(chatChunk(ids.completionId, ids.created, first ? { role: 'assistant', content } : { content }, null));
    first = false;
  };
  const emit = (event: RunEvent) => {
    if (event.type === 'delta') delta(event.content);
  };
  running = service.start(plan, { ids, streaming: true, emit, startedAt, trace });
  if (gone) running.abort(new ClientGone());
  // Ended in a callback rather than after an await: a held stream keeps its closures, not this function's frame.
  return running.outcome.then((ended) => {
    if (ended.ok) {
      if (format === 'json_template') delta(JSON.stringify(ended.result.value));
      else if (first) delta('');
      data(chatChunk(ids.completionId, ids.created, {}, ended.result.finishReason, ended.usage));
    } else {
      data(presentError(ended.error as AppError));
    }
    stream.write('data: [DONE]\n\n');
    stream.end();
  });
}

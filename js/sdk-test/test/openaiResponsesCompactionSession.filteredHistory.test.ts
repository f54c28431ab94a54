import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  MemorySession,
  Runner,
  type AgentInputItem,
  type CallModelInputFilter,
} from '@openai/agents-core';
import { ScriptedModel, assistantMessage } from '@openai/agents-core/testing';
import { OpenAIResponsesCompactionSession } from '../src';

// What openai/openai-agents-js#1953 protects, and a fix for compaction after its first run must
// keep: stored history that a `callModelInputFilter` left out of the model request is retained,
// never compacted as if the model had seen it.

const isUserMessage = (item: any) =>
  item.role === 'user' && (item.type ?? 'message') === 'message';

function setup(hook: () => boolean) {
  const compact = vi.fn(async (request: { input?: any[] }) => ({
    output: [
      ...(request.input ?? []).filter(isUserMessage).map((item, n) => ({
        id: `msg_kept_${n}`,
        type: 'message',
        status: 'completed',
        role: 'user',
        content:
          typeof item.content === 'string'
            ? [{ type: 'input_text', text: item.content }]
            : item.content,
      })),
      { type: 'compaction', encrypted_content: 'compacted history' },
    ],
    usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
  }));
  const session = new OpenAIResponsesCompactionSession({
    underlyingSession: new MemorySession(),
    compactionMode: 'input',
    client: { responses: { compact } } as any,
    shouldTriggerCompaction: hook,
  });
  const model = new ScriptedModel([
    [assistantMessage('answer 1')],
    [assistantMessage('answer 2')],
  ]);
  const agent = new Agent({ name: 'plain', model });
  return { session, agent, compact, runner: new Runner({ tracingDisabled: true }) };
}

/** Sends the model the current question only: everything stored before it is left out. */
const latestOnly: CallModelInputFilter = ({ modelData }) => ({
  ...modelData,
  input: modelData.input.slice(-1),
});

describe('OpenAIResponsesCompactionSession with history the application filtered', () => {
  it('retains stored turns the filter left out, before any compaction', async () => {
    let compactNow = false;
    const { session, agent, compact, runner } = setup(() => compactNow);
    await runner.run(agent, 'question 1', { session });
    compactNow = true;
    await runner.run(agent, 'question 2', { session, callModelInputFilter: latestOnly });
    expect(compact).not.toHaveBeenCalled();
    expect(await session.getItems()).toHaveLength(4);
  });

  it('retains a compaction item the filter left out', async () => {
    const { session, agent, compact, runner } = setup(() => true);
    await runner.run(agent, 'question 1', { session });
    expect(compact).toHaveBeenCalledTimes(1);
    const compacted: AgentInputItem[] = await session.getItems();
    await runner.run(agent, 'question 2', { session, callModelInputFilter: latestOnly });
    expect(compact).toHaveBeenCalledTimes(1);
    const stored = await session.getItems();
    expect(stored.slice(0, compacted.length)).toEqual(compacted);
    expect(stored).toHaveLength(compacted.length + 2);
  });
});

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
  const model = new ScriptedModel(
    Array.from({ length: 4 }, (_, n) => [assistantMessage(`answer ${n + 1}`)]),
  );
  const agent = new Agent({ name: 'plain', model });
  return {
    session,
    agent,
    compact,
    runner: new Runner({ tracingDisabled: true }),
  };
}

/** Sends the model the current question only: everything stored before it is left out. */
const latestOnly: CallModelInputFilter = ({ modelData }) => ({
  ...modelData,
  input: modelData.input.slice(-1),
});

/** Sends the model the compaction items and the current question: the turns stored after the
 * latest compaction item are left out. */
const compactionAndLatest: CallModelInputFilter = ({ modelData }) => ({
  ...modelData,
  input: [
    ...modelData.input.filter((item: any) => item.type === 'compaction'),
    modelData.input[modelData.input.length - 1],
  ],
});

/** Sends the model every stored answer and the current question: the earlier questions are
 * left out. */
const withoutEarlierQuestions: CallModelInputFilter = ({ modelData }) => ({
  ...modelData,
  input: modelData.input.filter(
    (item: any, n: number) =>
      !isUserMessage(item) || n === modelData.input.length - 1,
  ),
});

describe('OpenAIResponsesCompactionSession with history the application filtered', () => {
  it('retains stored turns the filter left out, before any compaction', async () => {
    let compactNow = false;
    const { session, agent, compact, runner } = setup(() => compactNow);
    await runner.run(agent, 'question 1', { session });
    compactNow = true;
    await runner.run(agent, 'question 2', {
      session,
      callModelInputFilter: latestOnly,
    });
    expect(compact).not.toHaveBeenCalled();
    expect(await session.getItems()).toHaveLength(4);
  });

  it('retains a compaction item the filter left out', async () => {
    const { session, agent, compact, runner } = setup(() => true);
    await runner.run(agent, 'question 1', { session });
    expect(compact).toHaveBeenCalledTimes(1);
    const compacted: AgentInputItem[] = await session.getItems();
    await runner.run(agent, 'question 2', {
      session,
      callModelInputFilter: latestOnly,
    });
    expect(compact).toHaveBeenCalledTimes(1);
    const stored = await session.getItems();
    expect(stored.slice(0, compacted.length)).toEqual(compacted);
    expect(stored).toHaveLength(compacted.length + 2);
  });

  it('retains a turn stored after the compaction item that the filter left out', async () => {
    let compactNow = true;
    const { session, agent, compact, runner } = setup(() => compactNow);
    await runner.run(agent, 'question 1', { session });
    expect(compact).toHaveBeenCalledTimes(1);
    compactNow = false;
    await runner.run(agent, 'question 2', { session });
    const kept: AgentInputItem[] = await session.getItems();
    compactNow = true;
    await runner.run(agent, 'question 3', {
      session,
      callModelInputFilter: compactionAndLatest,
    });
    expect(compact).toHaveBeenCalledTimes(1);
    const stored = await session.getItems();
    expect(stored.slice(0, kept.length)).toEqual(kept);
    expect(stored).toHaveLength(kept.length + 2);
  });

  it('retains a user message the filter left out', async () => {
    let compactNow = false;
    const { session, agent, compact, runner } = setup(() => compactNow);
    await runner.run(agent, 'question 1', { session });
    compactNow = true;
    await runner.run(agent, 'question 2', {
      session,
      callModelInputFilter: withoutEarlierQuestions,
    });
    expect(compact).not.toHaveBeenCalled();
    expect(await session.getItems()).toHaveLength(4);
  });
});

import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  MemorySession,
  Runner,
  type AgentInputItem,
} from '@openai/agents-core';
import { ScriptedModel, assistantMessage } from '@openai/agents-core/testing';
import { OpenAIResponsesCompactionSession } from '../src';

// Automatic compaction replaces the whole stored history with its answer, so it must read the
// whole history with explicit finite limits: a backend may answer a read without a limit with a
// default window, and a compaction given that window as the history drops the rest. The
// compaction endpoint answers as documented: the input's user messages, then one compaction
// item, so every question stays stored when the compaction is given all of them.

const isUserMessage = (item: any) =>
  item.role === 'user' && (item.type ?? 'message') === 'message';

/** A backend whose read without a limit is its latest `window` items, as a store that pages by
 * default answers; a read with a limit returns what it asks for. */
class WindowedSession extends MemorySession {
  constructor(private readonly window: number) {
    super();
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    return super.getItems(limit ?? this.window);
  }
}

describe('OpenAIResponsesCompactionSession on a backend that pages by default', () => {
  it('keeps every question when its unlimited read is a window', async () => {
    const turns = 6;
    const compact = vi.fn(async (request: { input?: any[] }) => ({
      output: [
        ...(request.input ?? []).filter(isUserMessage).map((item) => ({
          type: 'message',
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
    const underlying = new WindowedSession(3);
    const session = new OpenAIResponsesCompactionSession({
      underlyingSession: underlying,
      compactionMode: 'input',
      client: { responses: { compact } } as any,
      shouldTriggerCompaction: () => true,
    });
    const model = new ScriptedModel(
      Array.from({ length: turns }, (_, n) => [
        assistantMessage(`answer ${n + 1}`),
      ]),
    );
    const agent = new Agent({ name: 'plain', model });
    const runner = new Runner({ tracingDisabled: true });
    for (let turn = 1; turn <= turns; turn += 1) {
      await runner.run(agent, `question ${turn}`, { session });
      expect(compact).toHaveBeenCalledTimes(turn);
      const stored = await underlying.getItems(100);
      expect(stored.filter(isUserMessage)).toHaveLength(turn);
    }
  });
});

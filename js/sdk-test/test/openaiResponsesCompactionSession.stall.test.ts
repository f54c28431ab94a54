import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  MemorySession,
  Runner,
  type AgentInputItem,
} from '@openai/agents-core';
import { ScriptedModel, assistantMessage } from '@openai/agents-core/testing';
import { OpenAIResponsesCompactionSession } from '../src';

// Automatic compaction must keep running after its first compaction. `responses.compact` answers
// with "a list of all user messages, followed by a single compaction item" (the `openai`
// client's `CompactedResponse.output`); the runner then sends the model the history from that
// compaction item on, so the user messages stored before it are never in a model exchange, and
// the check that the exchange covers the stored history skips every later compaction: the
// stored history and every model input grow without bound. A fake that answers with the
// compaction item alone does not show it.

type Mode = 'input' | 'auto';

const isUserMessage = (item: any) =>
  item.role === 'user' && (item.type ?? 'message') === 'message';

/** `responses.compact` as documented: the input's user messages, then one compaction item. */
function documentedCompact() {
  return vi.fn(async (request: { input?: any[] }) => {
    const users = (request.input ?? []).filter(isUserMessage);
    return {
      id: 'resp_compact',
      object: 'response.compaction',
      output: [
        ...users.map((item, n) => ({
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
    };
  });
}

type Trigger = (context: {
  sessionItems: AgentInputItem[];
}) => boolean | Promise<boolean>;

function setup(
  mode: Mode,
  turns: number,
  trigger?: Trigger,
  underlying: MemorySession = new MemorySession(),
) {
  const compact = documentedCompact();
  const session = new OpenAIResponsesCompactionSession({
    underlyingSession: underlying,
    // `auto` with `store: false` compacts by input, as a stateless deployment does
    compactionMode: mode,
    client: { responses: { compact } } as any,
    ...(trigger ? { shouldTriggerCompaction: trigger } : {}),
  });
  const model = new ScriptedModel(
    Array.from({ length: turns }, (_, n) => [
      assistantMessage(`answer ${n + 1}`),
    ]),
  );
  const agent = new Agent({
    name: 'plain',
    model,
    modelSettings: mode === 'auto' ? { store: false } : {},
  });
  return {
    session,
    underlying,
    agent,
    model,
    compact,
    runner: new Runner({ tracingDisabled: true }),
  };
}

/** Items the default trigger counts: neither user messages nor compaction items. */
const candidates = (items: AgentInputItem[]) =>
  items.filter(
    (item: any) => !isUserMessage(item) && item.type !== 'compaction',
  );

const cases = (['input', 'auto'] as Mode[]).flatMap((mode) =>
  [false, true].map((stream) => ({ mode, stream })),
);

async function converse(
  { session, agent, runner }: ReturnType<typeof setup>,
  turns: number,
  stream: boolean,
  afterTurn: (turn: number) => Promise<void>,
) {
  for (let turn = 1; turn <= turns; turn += 1) {
    const question = `question ${turn}`;
    if (stream) {
      const result = await runner.run(agent, question, {
        session,
        stream: true,
      });
      for await (const _event of result) {
        // consume the stream fully
      }
      await result.completed;
    } else {
      await runner.run(agent, question, { session });
    }
    await afterTurn(turn);
  }
}

describe('OpenAIResponsesCompactionSession after its first compaction', () => {
  it.each(cases)(
    'compacts after every turn the hook asks it to (compactionMode=$mode, stream=$stream)',
    async ({ mode, stream }) => {
      const turns = 8;
      const decided: Array<[number, number]> = [];
      const conversation = setup(mode, turns, async ({ sessionItems }) => {
        const stored = await conversation.underlying.getItems();
        decided.push([sessionItems.length, stored.length]);
        return true;
      });
      const { compact, model, session } = conversation;
      await converse(conversation, turns, stream, async (turn) => {
        expect(compact).toHaveBeenCalledTimes(turn);
        const stored = await session.getItems();
        expect(candidates(stored)).toEqual([]);
        expect(
          stored.filter((item: any) => item.type === 'compaction'),
        ).toHaveLength(1);
        // The compaction keeps every question: the documented answer holds the user messages
        // of its input.
        expect(stored.filter(isUserMessage)).toHaveLength(turn);
      });
      // The hook decides on the whole stored history.
      expect(decided.map(([seen, stored]) => seen - stored)).toEqual(
        Array.from({ length: turns }, () => 0),
      );
      // The model is sent the latest compaction item, the question and nothing older.
      expect(model.lastCall!.request.input).toHaveLength(2);
    },
  );

  it.each(cases)(
    'compacts again whenever the default trigger reaches its threshold (compactionMode=$mode, stream=$stream)',
    async ({ mode, stream }) => {
      const turns = 32;
      const conversation = setup(mode, turns);
      const compacted: number[] = [];
      await converse(conversation, turns, stream, async (turn) => {
        if (conversation.compact.mock.calls.length > compacted.length)
          compacted.push(turn);
        // The default trigger asks at 10 candidate items: never more stay stored.
        expect(
          candidates(await conversation.session.getItems()).length,
        ).toBeLessThan(10);
      });
      expect(compacted).toEqual([10, 20, 30]);
    },
  );
});

import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  MemorySession,
  Runner,
  RunState,
  tool,
  type AgentInputItem,
} from '@openai/agents-core';
import {
  ScriptedModel,
  assistantMessage,
  functionCall,
} from '@openai/agents-core/testing';
import { OpenAIResponsesCompactionSession } from '../src';

// A tool call waiting for human approval must survive automatic compaction: compacted at the
// pause, the call is summarised away, the resumed run stores its output alone, and the API
// refuses the next request with "No tool call found for function call output with call_id ..."
// (HTTP 400; with previous_response_id the compaction request itself is refused). The Python
// SDK's report and fix: https://github.com/openai/openai-agents-python/issues/5340

type Mode = 'auto' | 'input' | 'previous_response_id';

const RESULT_TYPES: Record<string, string> = {
  function_call: 'function_call_result',
  computer_call: 'computer_call_result',
  shell_call: 'shell_call_output',
  apply_patch_call: 'apply_patch_call_output',
  program: 'program_output',
};

/** `callId`s of tool results whose call is not earlier in `items`, and of calls never answered. */
function unpaired(items: AgentInputItem[]) {
  const open: string[] = [];
  const orphans: string[] = [];
  for (const item of items as Array<{ type?: string; callId?: string }>) {
    if (!item.type || !item.callId) continue;
    if (item.type in RESULT_TYPES) open.push(`${item.type}:${item.callId}`);
    const call = Object.keys(RESULT_TYPES).find(
      (t) => RESULT_TYPES[t] === item.type,
    );
    if (!call) continue;
    const at = open.indexOf(`${call}:${item.callId}`);
    if (at >= 0) open.splice(at, 1);
    else orphans.push(item.callId);
  }
  return { open, orphans };
}

function setup(mode: Mode, store: boolean | undefined) {
  const compact = vi.fn().mockResolvedValue({
    output: [{ type: 'compaction', encrypted_content: 'compacted history' }],
    usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
  });
  const session = new OpenAIResponsesCompactionSession({
    underlyingSession: new MemorySession(),
    compactionMode: mode,
    client: { responses: { compact } } as any,
    shouldTriggerCompaction: () => true,
  });
  const execute = vi.fn(async () => 'looked up');
  const model = new ScriptedModel([
    [functionCall('lookup', '{}', { callId: 'call-1' })],
    [assistantMessage('found it')],
    [assistantMessage('next answer')],
  ]);
  const agent = new Agent({
    name: 'approval',
    model,
    modelSettings: store === undefined ? {} : { store },
    tools: [
      tool({
        name: 'lookup',
        description: 'Look a value up.',
        parameters: z.object({}),
        needsApproval: true,
        execute,
      }),
    ],
  });
  return {
    session,
    agent,
    model,
    compact,
    execute,
    runner: new Runner({ tracingDisabled: true }),
  };
}

const settings: Array<{ mode: Mode; store?: boolean }> = [
  { mode: 'input' },
  { mode: 'previous_response_id' },
  { mode: 'auto' },
  { mode: 'auto', store: false },
];
const cases = settings.flatMap((setting) =>
  [false, true].flatMap((stream) =>
    ['approve', 'reject'].flatMap((decision) =>
      [false, true].map((serialized) => ({
        ...setting,
        stream,
        decision,
        serialized,
      })),
    ),
  ),
);

describe('OpenAIResponsesCompactionSession with a tool call awaiting approval', () => {
  it.each(cases)(
    'keeps the call until its output is stored ($mode, store=$store, stream=$stream, $decision, serialized=$serialized)',
    async ({ mode, store, stream, decision, serialized }) => {
      const { session, agent, model, compact, execute, runner } = setup(
        mode,
        store,
      );
      const turn = async (input: string | RunState<any, any>) => {
        if (!stream) return runner.run(agent, input, { session });
        const result = await runner.run(agent, input, {
          session,
          stream: true,
        });
        for await (const _event of result) {
          // consume the stream fully
        }
        await result.completed;
        return result;
      };

      const paused = await turn('first question');
      expect(paused.interruptions).toHaveLength(1);
      // Nothing may compact the history while the call waits for its output.
      expect(compact).not.toHaveBeenCalled();
      expect(unpaired(await session.getItems()).open).toEqual([
        'function_call:call-1',
      ]);

      if (decision === 'approve') paused.state.approve(paused.interruptions[0]);
      else paused.state.reject(paused.interruptions[0]);
      const state = serialized
        ? await RunState.fromString(agent, paused.state.toString())
        : paused.state;
      await turn(state);
      expect(execute).toHaveBeenCalledTimes(decision === 'approve' ? 1 : 0);
      expect(unpaired(await session.getItems())).toEqual({
        open: [],
        orphans: [],
      });

      await turn('next question');
      const lastInput = model.lastCall!.request.input as AgentInputItem[];
      expect(unpaired(lastInput).orphans).toEqual([]);
      // Once the call has its output, automatic compaction runs again.
      expect(compact).toHaveBeenCalled();
      for (const [request] of compact.mock.calls) {
        expect(unpaired(request.input ?? []).orphans).toEqual([]);
        expect(unpaired(request.input ?? []).open).toEqual([]);
      }
    },
  );
});

// Every pair the runner correlates (agents-core's runner/toolResultCorrelation.ts): a call, and
// the item that answers it. A call of any of them without its answer must not be compacted.
const PAIRS: Array<{ kind: string; call: any; result: any }> = [
  {
    kind: 'function_call',
    call: {
      type: 'function_call',
      callId: 'c1',
      name: 'lookup',
      arguments: '{}',
    },
    result: {
      type: 'function_call_result',
      callId: 'c1',
      name: 'lookup',
      status: 'completed',
      output: { type: 'text', text: 'looked up' },
    },
  },
  {
    kind: 'computer_call',
    call: {
      type: 'computer_call',
      callId: 'c1',
      status: 'completed',
      action: { type: 'screenshot' },
    },
    result: {
      type: 'computer_call_result',
      callId: 'c1',
      output: {
        type: 'computer_screenshot',
        data: 'data:image/png;base64,AA==',
      },
    },
  },
  {
    kind: 'shell_call',
    call: {
      type: 'shell_call',
      callId: 'c1',
      status: 'completed',
      action: { commands: ['ls'] },
    },
    result: {
      type: 'shell_call_output',
      callId: 'c1',
      output: [
        { stdout: '', stderr: '', outcome: { type: 'exit', exitCode: 0 } },
      ],
    },
  },
  {
    kind: 'apply_patch_call',
    call: {
      type: 'apply_patch_call',
      callId: 'c1',
      status: 'completed',
      operation: { type: 'create_file', path: 'a.txt', diff: '+a' },
    },
    result: {
      type: 'apply_patch_call_output',
      callId: 'c1',
      status: 'completed',
    },
  },
  {
    kind: 'program',
    call: {
      type: 'program',
      callId: 'c1',
      code: 'print(1)',
      fingerprint: 'f1',
    },
    result: {
      type: 'program_output',
      callId: 'c1',
      output: '1',
      status: 'completed',
    },
  },
  {
    kind: 'mcp_approval_request',
    call: {
      type: 'hosted_tool_call',
      name: 'mcp_approval_request',
      id: 'mcpr_1',
      providerData: {
        type: 'mcp_approval_request',
        id: 'mcpr_1',
        server_label: 'docs',
        name: 'search',
        arguments: '{}',
      },
    },
    result: {
      type: 'hosted_tool_call',
      name: 'mcp_approval_response',
      providerData: {
        type: 'mcp_approval_response',
        approval_request_id: 'mcpr_1',
        approve: true,
      },
    },
  },
];

function compactingSession() {
  const compact = vi.fn().mockResolvedValue({
    output: [{ type: 'compaction', encrypted_content: 'compacted history' }],
    usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
  });
  const session = new OpenAIResponsesCompactionSession({
    underlyingSession: new MemorySession(),
    compactionMode: 'input',
    client: { responses: { compact } } as any,
    shouldTriggerCompaction: () => true,
  });
  /** A turn as the runner persists it: its items stored, then automatic compaction with the
   * turn's model exchange. */
  const turn = async (items: AgentInputItem[], exchange: AgentInputItem[]) => {
    const { ownership } = await session.getItemsWithCompactionOwnership();
    await session.addItemsWithCompactionOwnership(items, ownership);
    return session.runCompaction(
      { responseId: 'resp_1' },
      undefined,
      ownership,
      {
        items: exchange,
        responseId: 'resp_1',
      },
    );
  };
  return { session, compact, turn };
}

const question: AgentInputItem = { role: 'user', content: 'first question' };

describe('OpenAIResponsesCompactionSession with any call the runner pairs', () => {
  it.each(PAIRS)(
    'compacts automatically only once the $kind has its answer',
    async ({ call, result }) => {
      const { compact, turn } = compactingSession();
      await expect(
        turn([question, call], [question, call]),
      ).resolves.toBeNull();
      expect(compact).not.toHaveBeenCalled();
      await turn([result], [question, call, result]);
      expect(compact).toHaveBeenCalledTimes(1);
    },
  );

  it('compacts when the application asks, a call waiting or not', async () => {
    const { session, compact } = compactingSession();
    await session.addItems([question, PAIRS[0].call]);
    await session.runCompaction({ force: true });
    expect(compact).toHaveBeenCalledTimes(1);
  });
});

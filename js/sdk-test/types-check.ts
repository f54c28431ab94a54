// Type-checked (tsc --noEmit, never run): js/workaround.mjs used through js/workaround.d.mts as a
// TypeScript team uses it, against the pinned @openai/agents: every export called, every method of
// the wrapper called as the runner or an application calls it. A declaration that drifts from the
// SDK's Session interfaces or from what the module exports fails here.
import {
  Agent,
  MemorySession,
  OpenAIResponsesCompactionSession,
  run,
  RunContext,
  type AgentInputItem,
  type AssistantMessageItem,
  type OpenAIResponsesCompactionAwareSession,
  type Session,
} from '@openai/agents';

import {
  DeferCompactionWhilePending,
  deferCompactionWhilePending,
  KEPT,
  LATE_PREFIX,
  lateOutputMessage,
  openCalls,
  pairingKey,
  type Deferral,
  type Failure,
  type LateOutput,
  type Retirement,
} from '../workaround.mjs';

const compacting = new OpenAIResponsesCompactionSession({ underlyingSession: new MemorySession() });
const session = deferCompactionWhilePending(compacting);
const wrapped: OpenAIResponsesCompactionSession = session.session;
const asSession: Session = session;
const aware: OpenAIResponsesCompactionAwareSession = session;
const same: DeferCompactionWhilePending<OpenAIResponsesCompactionSession> = deferCompactionWhilePending(session);
const built = new DeferCompactionWhilePending(new OpenAIResponsesCompactionSession({}));

/** The Session methods as the runner calls them (with its run context) and as an application
 * does: its own compaction by response id, or forced, runs unchanged. */
export async function store(items: AgentInputItem[]): Promise<number> {
  const context = new RunContext({});
  await session.addItems(items, context);
  await built.addItems(items);
  const id: string = await session.getSessionId();
  const last: AgentInputItem[] = await session.getItems(10, context);
  const popped: AgentInputItem | undefined = await session.popItem();
  const byResponse = await session.runCompaction({ responseId: 'resp_1' });
  const forced = await session.runCompaction({ force: true }, context);
  await session.clearSession();
  return id.length + last.length + (popped ? 1 : 0) + (byResponse?.usage.totalTokens ?? 0) + (forced ? 1 : 0);
}

export async function turn(agent: Agent): Promise<string | undefined> {
  const result = await run(agent, 'Cancel order 42.', { session });
  return result.finalOutput;
}

export function logged(): string[] {
  const deferrals: Deferral[] = session.deferrals;
  const retirements: Retirement[] = session.retirements;
  const late: LateOutput[] = session.lateOutputs;
  const failed: Failure[] = session.failures;
  return [
    ...deferrals.map(({ open, itemsRead }) => `deferred ${open.join(',')} (${itemsRead} read)`),
    ...retirements.map(({ removed }) => `retired ${removed.join(',')}`),
    ...late.map(({ output, itemsRead }) => `stored ${output} as text (${itemsRead} read)`),
    ...failed.map(({ error, restored }) => `${String(error)}${restored ? ' (history written back)' : ''}`),
  ];
}

export function lateText(output: AgentInputItem): string {
  const message: AssistantMessageItem = lateOutputMessage(output);
  const [first] = message.content;
  const text = first?.type === 'output_text' ? first.text : '';
  return text.startsWith(LATE_PREFIX) ? text.slice(LATE_PREFIX.length) : text;
}

export async function pending(): Promise<{ live: number; dead: number; keys: (string | null)[] }> {
  const items = await session.getItems();
  const { live, dead } = openCalls(items);
  return { live: live.length, dead: dead.length, keys: items.map(pairingKey) };
}

/** The runner compares what it wrote with what is stored through the wrapper's hook. */
export function compared(items: AgentInputItem[]): AgentInputItem[] {
  return session.prepareHistoryItemsForPersistenceComparison(items);
}

export const limits: number = KEPT;
export { asSession, aware, built, same, wrapped };

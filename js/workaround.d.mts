// Types of js/workaround.mjs (TypeScript pairs a .mjs module with its .d.mts): a compaction
// session that waits for every call's output before it compacts automatically, and whose
// compactions drop the calls that can never be answered.
import type {
  AgentInputItem,
  AssistantMessageItem,
  OpenAIResponsesCompactionArgs,
  OpenAIResponsesCompactionAwareSession,
  OpenAIResponsesCompactionResult,
  RunContext,
  SessionHistoryRewriteArgs,
  SessionHistoryTransactionArgs,
} from '@openai/agents';

/** How many deferrals, retirements, late outputs and failures a session keeps (the latest). */
export declare const KEPT: number;
/** Begins the text of a late output stored as an assistant message. */
export declare const LATE_PREFIX: '[workaround] ';

/** An automatic compaction skipped: the calls (`type:callId`) still waiting for their output. */
export interface Deferral {
  open: string[];
  itemsRead: number;
}

/** Dead calls (`type:callId`) left out of an automatic compaction's decision and request, and
 * dropped from the store by its replacement. */
export interface Retirement {
  removed: string[];
  itemsRead: number;
}

/** An output (or MCP approval response) stored as text: its call (`type:callId`) was not stored.
 * `itemsRead` is 0 when the runner's own read before the write answered it. */
export interface LateOutput {
  output: string;
  itemsRead: number;
}

/** A failure of the store the workaround met and did not raise: during an automatic compaction
 * (which then counts as skipped, the history as it was: `restored` when the workaround wrote it
 * back itself), or the read that checks a resumed output after its write. `error` is the store's
 * first error. */
export interface Failure {
  error: unknown;
  restored: boolean;
}

/** `call:<type>:<id>` for a call or approval request, `result:<type>:<id>` for its answer. */
export declare function pairingKey(item: unknown): string | null;

/** Positions of unanswered calls: `live` can still be answered, `dead` a later turn follows. */
export declare function openCalls(items: readonly AgentInputItem[]): { live: number[]; dead: number[] };

/** The assistant message, beginning with `LATE_PREFIX`, that stands for an output whose call is no
 * longer stored. */
export declare function lateOutputMessage(item: AgentInputItem): AssistantMessageItem;

type ModelExchange = Parameters<OpenAIResponsesCompactionAwareSession['runCompaction']>[3];

export declare class DeferCompactionWhilePending<
  S extends OpenAIResponsesCompactionAwareSession = OpenAIResponsesCompactionAwareSession,
> implements OpenAIResponsesCompactionAwareSession
{
  constructor(session: S);
  /** The wrapped session. */
  readonly session: S;
  readonly deferrals: Deferral[];
  readonly retirements: Retirement[];
  readonly lateOutputs: LateOutput[];
  readonly failures: Failure[];
  /** Present (`true`) when the wrapped session has it. */
  readonly acceptsRunContext?: true;
  getSessionId(): Promise<string>;
  getItems(limit?: number, runContext?: RunContext<any>): Promise<AgentInputItem[]>;
  /** Stores an output whose call is neither earlier in the batch nor stored as text, and reads
   * the store once after a write that answered a stored call (another process's compaction may
   * have dropped it meanwhile: the output is then written again as text). */
  addItems(items: AgentInputItem[], runContext?: RunContext<any>): Promise<void>;
  popItem(runContext?: RunContext<any>): Promise<AgentInputItem | undefined>;
  clearSession(runContext?: RunContext<any>): Promise<void>;
  /** The runner's call waits while a call is pending and leaves dead calls out, and returns
   * `null` (keeping the error in `failures`) when the store failed and the history is as it was;
   * the application's own (`force: true`, or no ownership argument) runs unchanged. */
  runCompaction(
    args?: OpenAIResponsesCompactionArgs,
    runContext?: RunContext<any>,
    ownership?: object | null,
    modelExchange?: ModelExchange,
  ): Promise<OpenAIResponsesCompactionResult | null>;
  /** Forwarded when the wrapped session has them, as the runner probes for them. */
  getItemsWithCompactionOwnership?(
    runContext?: RunContext<any>,
  ): Promise<{ items: AgentInputItem[]; ownership: object }>;
  addItemsWithCompactionOwnership?(
    items: AgentInputItem[],
    ownership: object | null,
    runContext?: RunContext<any>,
  ): Promise<void>;
  /** The wrapped session's own comparison, when it has one, with each output as the text a late
   * output is stored as: a resume whose write lost its acknowledgement is retried as bare. */
  prepareHistoryItemsForPersistenceComparison(items: AgentInputItem[]): AgentInputItem[];
  prepareHistoryItemForModelInput?(item: AgentInputItem): AgentInputItem;
  preserveReasoningItemIdsForPersistence?(): boolean;
  replaceHistoryWithCompaction?(items: AgentInputItem[], runContext?: RunContext<any>): Promise<void>;
  applyHistoryMutations?(args: SessionHistoryRewriteArgs): Promise<void>;
  applyHistoryTransaction?(args: SessionHistoryTransactionArgs, runContext?: RunContext<any>): Promise<void>;
}

/** Wrap a compaction session (an `OpenAIResponsesCompactionSession`); a wrapped one is returned as it is. */
export declare function deferCompactionWhilePending<S extends OpenAIResponsesCompactionAwareSession>(
  session: DeferCompactionWhilePending<S>,
): DeferCompactionWhilePending<S>;
export declare function deferCompactionWhilePending<S extends OpenAIResponsesCompactionAwareSession>(
  session: S,
): DeferCompactionWhilePending<S>;

// Types of js/workaround.mjs: a compaction session that waits for every call's output before it
// compacts automatically, and retires calls that can never be answered.
import type {
  AgentInputItem,
  OpenAIResponsesCompactionArgs,
  OpenAIResponsesCompactionAwareSession,
  OpenAIResponsesCompactionResult,
  RunContext,
} from '@openai/agents';

/** Stored items checked when the runner hands no model exchange (releases before ownership). */
export declare const LEGACY_WINDOW: number;
/** How many deferrals and retirements a session keeps (the latest). */
export declare const KEPT: number;

/** An automatic compaction skipped: the calls (`type:callId`) still waiting for their output. */
export interface Deferral {
  open: string[];
  itemsRead: number;
}

/** Dead calls (`type:callId`) removed from the store before an automatic compaction. */
export interface Retirement {
  removed: string[];
  itemsRead: number;
}

/** `call:<type>:<id>` for a call or approval request, `result:<type>:<id>` for its answer. */
export declare function pairingKey(item: unknown): string | null;

/** Positions of unanswered calls: `live` can still be answered, `dead` a later turn follows. */
export declare function openCalls(items: readonly AgentInputItem[]): { live: number[]; dead: number[] };

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
  getSessionId(): Promise<string>;
  getItems(limit?: number): Promise<AgentInputItem[]>;
  addItems(items: AgentInputItem[]): Promise<void>;
  popItem(): Promise<AgentInputItem | undefined>;
  clearSession(): Promise<void>;
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
  prepareHistoryItemsForPersistenceComparison?(items: AgentInputItem[]): AgentInputItem[];
  prepareHistoryItemForModelInput?(item: AgentInputItem): AgentInputItem;
  preserveReasoningItemIdsForPersistence?(): boolean;
}

/** Wrap a compaction session (an `OpenAIResponsesCompactionSession`); a wrapped one is returned as it is. */
export declare function deferCompactionWhilePending<S extends OpenAIResponsesCompactionAwareSession>(
  session: S,
): DeferCompactionWhilePending<S>;

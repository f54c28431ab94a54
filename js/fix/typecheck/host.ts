// The host the TypeScript forms of the fixes (js/fix/agents-openai-0.20.0*.ts) are compiled and
// linted in, each piece in place of its slot (a `// @@slot` line up to `// @@end`, whose lines
// stand for the release's own; a form without that piece keeps them). It holds what the pieces
// read in OpenAIResponsesCompactionSession (packages/agents-openai/src/memory/
// openaiResponsesCompactionSession.ts), with the types @openai/agents 0.20.0 declares for them,
// nested as in that file: it is this project's stand-in, not the class.
import {
  getLogger,
  type AgentInputItem,
  type OpenAIResponsesCompactionAwareSession as OpenAIResponsesCompactionSessionLike,
  type Session,
} from '@openai/agents-core';
// @@imports
import {
  attachModelFailureUsage,
  getModelVisibleSessionItems,
  logModelAndToolActionWarning,
} from '@openai/agents-core/utils/internal';
// @@end

const logger = getLogger('openai-agents:openai:compaction');
// Named by the release's import beside getModelVisibleSessionItems; used elsewhere in its file.
export const elsewhere = [
  attachModelFailureUsage,
  logModelAndToolActionWarning,
];

export class OpenAIResponsesCompactionSessionHost implements Session {
  private compactionCandidateItems: AgentInputItem[] | undefined;
  private sessionItems: AgentInputItem[] | undefined;
  private mutationOperation: Promise<void> = Promise.resolve();

  constructor(private readonly underlyingSession: Session) {}

  async runCompaction(
    ownership?: object | null,
    modelExchange?: Parameters<
      OpenAIResponsesCompactionSessionLike['runCompaction']
    >[3],
  ): Promise<AgentInputItem[] | null> {
    return this.runMutationOperation(async () => {
      let automaticInput: AgentInputItem[] | undefined;
      if (ownership !== undefined) {
        if (!modelExchange) return null;
        const history = await this.underlyingSession.getItems(
          modelExchange.items.length + 1,
        );
        // @@after-read
        // @@end
        // @@cover
        automaticInput = getModelVisibleSessionItems(
          this,
          history,
          modelExchange,
        );
        // @@end
        if (!automaticInput || automaticInput.length === 0) {
          logger.debug('skip: not covered');
          return null;
        }
        // @@cache
        this.sessionItems = history;
        this.compactionCandidateItems = selectCompactionCandidateItems(history);
        // @@end
      }
      return automaticInput ?? this.sessionItems ?? null;
    });
  }
  // @@methods
  // @@end

  private runMutationOperation<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.mutationOperation.then(operation);
    this.mutationOperation = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  candidates(): AgentInputItem[] | undefined {
    return this.compactionCandidateItems;
  }

  getSessionId(): Promise<string> {
    return this.underlyingSession.getSessionId();
  }

  getItems(limit?: number): Promise<AgentInputItem[]> {
    return this.underlyingSession.getItems(limit);
  }

  addItems(items: AgentInputItem[]): Promise<void> {
    return this.underlyingSession.addItems(items);
  }

  popItem(): Promise<AgentInputItem | undefined> {
    return this.underlyingSession.popItem();
  }

  clearSession(): Promise<void> {
    return this.underlyingSession.clearSession();
  }
}

function selectCompactionCandidateItems(
  items: AgentInputItem[],
): AgentInputItem[] {
  return items.filter(
    (item) =>
      item.type !== 'compaction' &&
      !(item.type === 'message' && item.role === 'user'),
  );
}

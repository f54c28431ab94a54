// The stall's fix (agents-openai-0.20.0-stall.diff) in the terms of the TypeScript source,
// packages/agents-openai/src/memory/openaiResponsesCompactionSession.ts. The npm package ships
// dist/ and source maps only; the lines it replaces are found through those maps (the report
// links each at the release's tag), so this text is written against them, not compiled.
//
// In `runCompaction`, the automatic branch's
//
//     automaticInput = getModelVisibleSessionItems(this, history, modelExchange);
//
// becomes
//
//     const covered = await this.coverModelExchange(history, modelExchange);
//     automaticInput = covered.input;
//
// and the two lines that cache the history after the skip cache what was covered:
//
//     this.sessionItems = covered.history;
//     this.compactionCandidateItems = selectCompactionCandidateItems(covered.history);
//
// with this method on the class:

  /**
   * The runner sends the model the history from its latest compaction item on
   * (`trimToLatestCompaction`), so what is stored before that item is what the item stands for
   * (the user messages its compaction answered with), not history an application left out of
   * the model input. When the exchange starts at a compaction item, coverage is checked from
   * the stored one on, and the items before it go to the compaction too, which keeps them.
   * Anything else uncovered (a `callModelInputFilter` or `sessionInputCallback` that left a
   * stored item out, the compaction item included) still skips, as before.
   */
  private async coverModelExchange(
    history: AgentInputItem[],
    exchange: NonNullable<Parameters<OpenAIResponsesCompactionSessionLike['runCompaction']>[3]>,
  ): Promise<{ input: AgentInputItem[] | undefined; history: AgentInputItem[] }> {
    const input = getModelVisibleSessionItems(this, history, exchange);
    if (input || exchange.items[0]?.type !== 'compaction') {
      return { input, history };
    }
    let stored: AgentInputItem[];
    try {
      stored = await this.getAllUnderlyingSessionItems();
    } catch (error) {
      logger.debug('skip: stored history before the compaction item could not be read %o', error);
      return { input, history };
    }
    const at = stored.findLastIndex((item) => item.type === 'compaction');
    const covered =
      at < 0 ? undefined : getModelVisibleSessionItems(this, stored.slice(at), exchange);
    return covered
      ? { input: [...stored.slice(0, at), ...covered], history: stored }
      : { input, history };
  }

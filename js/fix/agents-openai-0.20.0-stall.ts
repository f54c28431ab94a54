// The stall's fix in the TypeScript source: what agents-openai-0.20.0-stall.diff changes in the
// published dist, for packages/agents-openai/src/memory/openaiResponsesCompactionSession.ts.
// Each piece follows a `// @@ slot: where it goes` line. `python -m approval_compaction
// js-typecheck` compiles the pieces in place (typecheck/host.ts) with the repository's compiler
// options (its tsconfig.json: lib ES2018, strict) against the release's declarations, and checks
// them with its prettier settings and eslint rules.

// @@ cover: in runCompaction, the check of the history read, `automaticInput = getModelVisibleSessionItems(this, history, modelExchange);`, becomes
        const covered = await this.coverModelExchange(history, modelExchange);
        automaticInput = covered.input;
// @@ cache: in runCompaction, the two lines that cache the history read after the check become
        this.sessionItems = covered.history;
        this.compactionCandidateItems = selectCompactionCandidateItems(
          covered.history,
        );
// @@ methods: a private method of OpenAIResponsesCompactionSession

  /**
   * The runner sends the model the history from its latest compaction item on
   * (`trimToLatestCompaction`), so the items stored before that item are what it stands for (the
   * user messages its compaction answered with), not history an application left out of the
   * model input. When the history read is not covered, the rest of it is read, coverage is
   * checked from the latest stored compaction item on, and the items before that item go to the
   * compaction too, which keeps them. Anything else uncovered (an item a `callModelInputFilter`
   * or `sessionInputCallback` left out, the compaction item included) still skips.
   */
  private async coverModelExchange(
    history: AgentInputItem[],
    exchange: NonNullable<
      Parameters<OpenAIResponsesCompactionSessionLike['runCompaction']>[3]
    >,
  ): Promise<{
    input: AgentInputItem[] | undefined;
    history: AgentInputItem[];
  }> {
    const input = getModelVisibleSessionItems(this, history, exchange);
    if (input) {
      return { input, history };
    }
    // Explicit finite limits, doubled until the backend returns fewer items than asked, so a
    // backend's default window is never taken for the whole history.
    let stored = history;
    for (let limit = exchange.items.length + 1; stored.length >= limit;) {
      limit *= 2;
      stored = await this.underlyingSession.getItems(limit);
    }
    let at = stored.length - 1;
    while (at >= 0 && stored[at].type !== 'compaction') {
      at -= 1;
    }
    const covered =
      at < 0
        ? undefined
        : getModelVisibleSessionItems(this, stored.slice(at), exchange);
    return covered
      ? { input: [...stored.slice(0, at), ...covered], history: stored }
      : { input, history };
  }

// The pending call's fix in the TypeScript source: what agents-openai-0.20.0.diff changes in the
// published dist. Automatic compaction skips while the history read holds a tool call without
// its result, by the runner's own pairing (packages/agents-core/src/runner/
// toolResultCorrelation.ts: function, computer, shell, apply_patch and program calls, client
// tool searches, hosted MCP approval requests), which agents-core exports for agents-openai as
// it exports getModelVisibleSessionItems. Each piece follows a `// @@ slot: where it goes` line.
// `python -m approval_compaction js-typecheck` compiles the pieces in place (typecheck/host.ts)
// with the repository's compiler options (its tsconfig.json: lib ES2018, strict) against the
// release's declarations, and checks them with its prettier settings and eslint rules.

// @@ core-export: packages/agents-core/src/utils/internal.ts, after the export of getModelVisibleSessionItems
export { getUnresolvedToolResultCorrelationsForResponse } from '../runner/toolResultCorrelation';
// @@ imports: packages/agents-openai/src/memory/openaiResponsesCompactionSession.ts, its import from '@openai/agents-core/utils/internal' names it too
import {
  attachModelFailureUsage,
  getModelVisibleSessionItems,
  getUnresolvedToolResultCorrelationsForResponse,
  logModelAndToolActionWarning,
} from '@openai/agents-core/utils/internal';
// @@ after-read: in runCompaction, after `const history = await this.underlyingSession.getItems(modelExchange.items.length + 1);`
        if (
          getUnresolvedToolResultCorrelationsForResponse(history).length > 0
        ) {
          logger.debug(
            'skip: a tool call in the stored history awaits its result',
          );
          return null;
        }

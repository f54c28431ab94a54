// Defer automatic compaction while a tool call waits for its output.
//
// On @openai/agents 0.3.6 to 0.20.0, `OpenAIResponsesCompactionSession` compacts the history
// when a run pauses for approval: the pending call is summarised away, the output the resumed
// run stores later has no call, and the next turn (or, with previous_response_id, the
// compaction itself) is refused by the API with HTTP 400. This module brings the rule of the
// Python SDK's fix (openai-agents-python 0.24.0) to those releases:
//
//   import { deferCompactionWhilePending } from './workaround.mjs';
//   const session = deferCompactionWhilePending(new OpenAIResponsesCompactionSession({ ... }));
//
// The result is a decorator with the same Session interface: every method the runner calls or
// probes for (`runCompaction`, the compaction-ownership pair, the persistence hooks, the
// OPENAI_SESSION_API brand) is forwarded to the wrapped session exactly when that session has
// it, so the runner treats the wrapper as it treats the session. Only `runCompaction` changes:
//
// - An automatic compaction (the runner's) first reads the stored items the latest model
//   exchange covers (the bound the SDK reads itself; 64 on releases before the runner handed
//   the exchange over). While a call or a hosted MCP approval request there has no output
//   (response), the compaction is skipped, as the SDK skips one its hook declines; the runner
//   decides afresh after the next turn, on a history that has only grown.
// - A call that can never be answered is *dead*: a user message or a compaction item follows
//   it (the user asked something else instead of deciding, or the process that held the
//   approval died). The runner leaves it out of every later model input; stored, it would stop
//   compaction for good. Before an automatic compaction that only dead calls stand in the way
//   of, they are removed from the store (one read, one replacement, the old history put back if
//   the replacement fails), and the compaction runs.
// - After a compaction the runner sends the model only the history from the compaction item
//   on, while the store keeps the user messages the compaction endpoint answered with before
//   it; the SDK (0.19.0 on) compacts automatically only when the model exchange covers the
//   stored history it reads, so it never compacts again. The workaround hands the SDK the
//   exchange with those stored items before the latest compaction item put in front, as the
//   items that item stands for, and the compaction runs.
// - A late output is stored as text. An application that resumes an abandoned approval after
//   the user moved on appends the call's output when the call is no longer stored (retired
//   here, or compacted away before the workaround was installed); sent without its call, it
//   would make the API refuse every later turn. So an output (or MCP approval response) whose
//   call is neither earlier in its batch nor stored becomes an assistant message saying what the
//   tool returned, as the Python workaround stores it (`[workaround] The tool call ...`).
// - A compaction the application asks for itself (no ownership token from the runner, or
//   `force: true`) runs unchanged.
//
// What it keeps: `deferrals`, `retirements` and `lateOutputs`, the latest 64 of each, to log or
// assert on.

export const LEGACY_WINDOW = 64; // stored items checked when the runner hands no model exchange
export const KEPT = 64; // deferrals, retirements and late outputs kept
export const LATE_PREFIX = '[workaround] '; // begins a late output stored as text

// The runner's own pairing (agents-core runner/toolResultCorrelation): a call's type, the type
// of the item that answers it; both carry the same `callId`.
const RESULT_TYPE = {
  function_call: 'function_call_result',
  computer_call: 'computer_call_result',
  shell_call: 'shell_call_output',
  apply_patch_call: 'apply_patch_call_output',
  program: 'program_output',
};
const MCP_REQUEST = 'mcp_approval_request';
const MCP_RESPONSE = 'mcp_approval_response';

// Optional Session methods the runner probes for (typeof ... === 'function', or `?.()`).
const OPTIONAL = [
  'getItemsWithCompactionOwnership',
  'addItemsWithCompactionOwnership',
  'prepareHistoryItemForModelInput',
  'prepareHistoryItemsForPersistenceComparison',
  'preserveReasoningItemIdsForPersistence',
  'replaceHistoryWithCompaction',
  'applyHistoryMutations',
  'applyHistoryTransaction',
];

/** `call:<key>` for a call or approval request, `result:<key>` for what answers it, else null. */
export function pairingKey(item) {
  if (!item || typeof item !== 'object') return null;
  if (RESULT_TYPE[item.type] && typeof item.callId === 'string') {
    return `call:${item.type}:${item.callId}`;
  }
  const resultOf = Object.keys(RESULT_TYPE).find((call) => RESULT_TYPE[call] === item.type);
  if (resultOf && typeof item.callId === 'string') return `result:${resultOf}:${item.callId}`;
  if (item.type !== 'hosted_tool_call') return null;
  const data = item.providerData ?? {};
  if (item.name === MCP_REQUEST || data.type === MCP_REQUEST) {
    const id = data.id ?? item.id;
    return typeof id === 'string' ? `call:${MCP_REQUEST}:${id}` : null;
  }
  if (item.name === MCP_RESPONSE || data.type === MCP_RESPONSE) {
    const id = data.approval_request_id ?? data.approvalRequestId;
    return typeof id === 'string' ? `result:${MCP_REQUEST}:${id}` : null;
  }
  return null;
}

/** A user message or a compaction item: a later turn, after which no call is answered. */
function isLaterTurn(item) {
  return item?.type === 'compaction' || (item?.role === 'user' && (item.type ?? 'message') === 'message');
}

/**
 * The calls and approval requests of `items` that no later item answers, by position, split
 * into `live` (still answerable) and `dead` (a later turn follows them).
 */
export function openCalls(items) {
  const open = new Map(); // key -> positions still unanswered, oldest first
  items.forEach((item, position) => {
    const key = pairingKey(item);
    if (key === null) return;
    const [kind, ...rest] = key.split(':');
    const call = rest.join(':');
    if (kind === 'call') open.set(call, [...(open.get(call) ?? []), position]);
    else open.get(call)?.shift();
  });
  const lastTurn = items.findLastIndex(isLaterTurn);
  const positions = [...open.values()].flat().sort((a, b) => a - b);
  return {
    live: positions.filter((p) => p > lastTurn),
    dead: positions.filter((p) => p < lastTurn),
  };
}

/** The assistant message that stands for an output whose call is no longer stored. */
export function lateOutputMessage(item) {
  const output = item.output ?? Object.fromEntries(Object.entries(item).filter(([k]) => !['type', 'id', 'callId', 'providerData'].includes(k)));
  const value = output?.type === 'text' ? output.text : output;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const name = item.type === 'hosted_tool_call' ? MCP_RESPONSE : `${item.name ?? item.type}:${item.callId ?? '?'}`;
  return {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: `${LATE_PREFIX}The tool call ${name} returned: ${text}` }],
  };
}

function named(items, positions) {
  return positions.map((p) => {
    const item = items[p];
    return `${item.type === 'hosted_tool_call' ? MCP_REQUEST : item.type}:${item.callId ?? item.providerData?.id ?? item.id ?? '?'}`;
  });
}

function keep(list, entry) {
  list.push(entry);
  if (list.length > KEPT) list.shift();
}

/** A compaction session that waits for every call's output before it compacts automatically. */
export class DeferCompactionWhilePending {
  constructor(session) {
    if (!session || typeof session.runCompaction !== 'function') {
      throw new TypeError('deferCompactionWhilePending needs an OpenAIResponsesCompactionSession (a session with runCompaction)');
    }
    this.session = session;
    this.deferrals = [];
    this.retirements = [];
    this.lateOutputs = [];
    for (const name of OPTIONAL) {
      if (typeof session[name] === 'function') this[name] = (...args) => session[name](...args);
    }
    if (typeof session.addItemsWithCompactionOwnership === 'function') {
      this.addItemsWithCompactionOwnership = async (items, ...rest) =>
        session.addItemsWithCompactionOwnership(await this.withLateOutputs(items), ...rest);
    }
    if (session.acceptsRunContext === true) this.acceptsRunContext = true;
    for (const brand of Object.getOwnPropertySymbols(session)) this[brand] = session[brand];
  }

  getSessionId(...args) {
    return this.session.getSessionId(...args);
  }

  getItems(...args) {
    return this.session.getItems(...args);
  }

  async addItems(items, ...rest) {
    return this.session.addItems(await this.withLateOutputs(items), ...rest);
  }

  /** The batch with each output whose call is neither earlier in it nor stored as text; the
   * stored history is read only for a batch that holds such an output. */
  async withLateOutputs(items) {
    if (!Array.isArray(items)) return items;
    const alone = (list) => list.map(pairingKey).some((key, at) => key?.startsWith('result:') && !list.slice(0, at).some((i) => pairingKey(i) === `call:${key.slice(7)}`));
    if (!alone(items)) return items;
    const stored = await this.session.getItems();
    const calls = new Set(stored.map(pairingKey).filter((k) => k?.startsWith('call:')));
    const out = [];
    for (const item of items) {
      const key = pairingKey(item);
      if (key?.startsWith('call:')) calls.add(key);
      if (key?.startsWith('result:') && !calls.has(`call:${key.slice(7)}`)) {
        out.push(lateOutputMessage(item));
        keep(this.lateOutputs, { output: key.slice(7), itemsRead: stored.length });
      } else {
        out.push(item);
      }
    }
    return out;
  }

  popItem(...args) {
    return this.session.popItem(...args);
  }

  clearSession(...args) {
    return this.session.clearSession(...args);
  }

  /** The runner's call (it passes an ownership token, or on releases before ownership a
   * response id) waits for open calls and retires dead ones; the application's runs as it is. */
  async runCompaction(args, ...rest) {
    const window = this.automaticWindow(args, rest);
    if (window === 0) return this.session.runCompaction(args, ...rest);
    const items = await this.session.getItems(window);
    const { live, dead } = openCalls(items);
    if (live.length > 0) {
      keep(this.deferrals, { open: named(items, live), itemsRead: items.length });
      return null;
    }
    if (dead.length > 0) await this.retire();
    return this.session.runCompaction(args, ...(await this.withCompactedPrefix(rest)));
  }

  /** The runner's arguments with its model exchange preceded by the stored items before the
   * latest compaction item, when the exchange begins with that item (the runner sends nothing
   * before it; the SDK reads them as history the exchange does not cover). */
  async withCompactedPrefix(rest) {
    const [context, ownership, exchange] = rest;
    if (!Array.isArray(exchange?.items) || exchange.items[0]?.type !== 'compaction') return rest;
    const stored = await this.session.getItems();
    const at = stored.findLastIndex((item) => item?.type === 'compaction');
    if (at <= 0) return rest;
    return [context, ownership, { ...exchange, items: [...stored.slice(0, at), ...exchange.items] }, ...rest.slice(3)];
  }

  /** How many stored items an automatic compaction is checked over; 0 for the application's.
   * The runner hands its model exchange (0.19.0 on), or an ownership token alone (0.17.1 to
   * 0.18.0), or only the turn's response id (before): each is the runner's own call. */
  automaticWindow(args, [, ownership, exchange]) {
    if (args?.force === true) return 0;
    if (Array.isArray(exchange?.items)) return exchange.items.length + 1;
    if (ownership) return LEGACY_WINDOW;
    return args?.responseId ? LEGACY_WINDOW : 0;
  }

  /** Remove every dead call of the stored history, under the session's lock where it has one. */
  async retire() {
    const store = this.session.underlyingSession; // the store the SDK's session writes to
    if (!store) return undefined;
    const replace = async () => {
      const items = await store.getItems();
      const { dead } = openCalls(items);
      if (dead.length === 0) return;
      const gone = new Set(dead);
      await store.clearSession();
      try {
        await store.addItems(items.filter((_, p) => !gone.has(p)));
      } catch (error) {
        await store.clearSession();
        await store.addItems(items);
        throw error;
      }
      // The SDK's cached views of the history are stale now: it reads the store again.
      if ('sessionItems' in this.session) this.session.sessionItems = undefined;
      if ('compactionCandidateItems' in this.session) this.session.compactionCandidateItems = undefined;
      keep(this.retirements, { removed: named(items, dead), itemsRead: items.length });
    };
    const lock = this.session.runMutationOperation;
    return typeof lock === 'function' ? lock.call(this.session, replace) : replace();
  }
}

/** Wrap a compaction session so automatic compaction waits while a call is pending. */
export function deferCompactionWhilePending(session) {
  return session instanceof DeferCompactionWhilePending ? session : new DeferCompactionWhilePending(session);
}

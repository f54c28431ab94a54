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
// probes for (`runCompaction`, the compaction-ownership pair, the persistence hooks,
// `acceptsRunContext`) is forwarded to the wrapped session exactly when that session has it, so
// the runner treats the wrapper as it treats the session. What it changes:
//
// - An automatic compaction (the runner's) waits while a call or a hosted MCP approval request
//   has no output (response) among the items the SDK decides on (the stored items the latest
//   model exchange covers; on releases before the runner handed the exchange over, the history
//   the session holds or reads): it returns `null`, as the SDK does when its hook declines, and
//   the runner decides afresh after the next turn, on a history that has only grown. The check
//   reads nothing the SDK does not read itself: it looks at the SDK's own read.
// - A call that can never be answered is *dead*: a user message or a compaction item follows
//   it (the user asked something else instead of deciding, or the process that held the
//   approval died). The runner leaves it out of every later model input; stored, it would stop
//   compaction for good. The SDK's decision and its compaction request see the history without
//   dead calls, and when its hook says yes, the compaction's own replacement of the stored
//   history drops them. The workaround has no rewrite of its own: a replacement that fails is
//   put back by the SDK as it puts back any (0.11.0 on), and by the workaround where the SDK
//   does not (before 0.11.0) or its restore fails too, from the history read before the clear;
//   the first failure is raised (a failed restore's attached as its `cause`), and when no
//   compaction follows, nothing is rewritten and a late resume still finds its call.
// - After a compaction the runner sends the model only the history from the compaction item
//   on, while the store keeps the user messages the compaction endpoint answered with before
//   it; the SDK (0.19.0 on) compacts automatically only when the model exchange covers the
//   stored history it reads, so it never compacts again. The workaround hands the SDK the
//   exchange with those stored items before the latest compaction item put in front, as the
//   items that item stands for, and the compaction runs.
// - A late output is stored as text. An application that resumes an abandoned approval after
//   its call was compacted away appends the call's output alone; sent without its call, it
//   would make the API refuse every later turn. So an output (or MCP approval response) whose
//   call is neither earlier in its batch nor stored becomes an assistant message saying what the
//   tool returned, as the Python workaround stores it (`[workaround] The tool call ...`). The
//   check and the write run in the wrapper's one queue with every compaction and write it
//   forwards, so a resume racing a new turn's compaction sees the store as it is written.
// - A compaction the application asks for itself runs unchanged: `force: true`, or on 0.17.1
//   and later any call without the runner's ownership argument. Before 0.17.1 the runner passes
//   only the response id, as an application would, so there a call with a `responseId` counts
//   as the runner's.
//
// What it keeps: `deferrals`, `retirements` and `lateOutputs`, the latest 64 of each, to log or
// assert on.

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
const CALL_OF = Object.fromEntries(Object.entries(RESULT_TYPE).map(([call, result]) => [result, call]));
const MCP_REQUEST = 'mcp_approval_request';
const MCP_RESPONSE = 'mcp_approval_response';

// Optional Session methods the runner probes for (typeof ... === 'function', or `?.()`): the
// synchronous ones, forwarded as they are, and those that read or write the store, forwarded
// in the wrapper's queue.
const OPTIONAL_SYNC = [
  'prepareHistoryItemForModelInput',
  'prepareHistoryItemsForPersistenceComparison',
  'preserveReasoningItemIdsForPersistence',
];
const OPTIONAL_QUEUED = ['replaceHistoryWithCompaction', 'applyHistoryMutations', 'applyHistoryTransaction'];

/** `call:<key>` for a call or approval request, `result:<key>` for what answers it, else null. */
export function pairingKey(item) {
  if (!item || typeof item !== 'object') return null;
  if (RESULT_TYPE[item.type] && typeof item.callId === 'string') {
    return `call:${item.type}:${item.callId}`;
  }
  const resultOf = CALL_OF[item.type];
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
  let lastTurn = -1;
  items.forEach((item, position) => {
    if (isLaterTurn(item)) lastTurn = position;
    const key = pairingKey(item);
    if (key === null) return;
    const call = key.slice(key.indexOf(':') + 1);
    if (key.startsWith('call:')) {
      const waiting = open.get(call);
      if (waiting) waiting.push(position);
      else open.set(call, [position]);
    } else {
      open.get(call)?.shift();
    }
  });
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

/** The call keys (`call:<type>:<id>`) of `items`. */
function callKeys(items) {
  const keys = new Set();
  for (const item of items) {
    const key = pairingKey(item);
    if (key?.startsWith('call:')) keys.add(key);
  }
  return keys;
}

// The store's writes, whose failures a compaction's error carries.
const WRITES = ['addItems', 'clearSession', 'popItem'];
// Thrown by the decision's read when a call is live; `runCompaction` returns null for it.
const DEFER = Symbol('defer compaction while a call is pending');

// One queue and one write count per wrapped session, shared by every wrapper of it.
const QUEUES = new WeakMap();

function queueOf(session) {
  let queue = QUEUES.get(session);
  if (!queue) {
    queue = { tail: Promise.resolve(), writes: 0 };
    QUEUES.set(session, queue);
  }
  return queue;
}

/** A compaction session that waits for every call's output before it compacts automatically. */
export class DeferCompactionWhilePending {
  #queue;
  #store = null; // the store the SDK reads, while a decision reads it through the view
  #snapshot = null; // the call keys of the latest whole read, and when it was taken

  constructor(session) {
    if (!session || typeof session.runCompaction !== 'function') {
      throw new TypeError('deferCompactionWhilePending needs an OpenAIResponsesCompactionSession (a session with runCompaction)');
    }
    this.session = session;
    this.deferrals = [];
    this.retirements = [];
    this.lateOutputs = [];
    this.#queue = queueOf(session);
    for (const name of OPTIONAL_SYNC) {
      if (typeof session[name] === 'function') this[name] = (...args) => session[name](...args);
    }
    for (const name of OPTIONAL_QUEUED) {
      if (typeof session[name] === 'function') this[name] = (...args) => this.#write(() => session[name](...args));
    }
    if (typeof session.getItemsWithCompactionOwnership === 'function') {
      this.getItemsWithCompactionOwnership = (...args) =>
        this.#queued(async () => {
          const mark = this.#mark();
          const snapshot = await session.getItemsWithCompactionOwnership(...args);
          this.#remember(snapshot.items, mark);
          return snapshot;
        });
    }
    if (typeof session.addItemsWithCompactionOwnership === 'function') {
      this.addItemsWithCompactionOwnership = (items, ...rest) =>
        this.#queued(async () => {
          const batch = await this.#withLateOutputs(items);
          return this.#counted(() => session.addItemsWithCompactionOwnership(batch, ...rest));
        });
    }
    if (session.acceptsRunContext === true) this.acceptsRunContext = true;
  }

  getSessionId(...args) {
    return this.session.getSessionId(...args);
  }

  /** The stored items, as the wrapped session reads them (while the SDK decides on a
   * compaction, from the store itself, never through the decision's view). */
  async getItems(limit, ...rest) {
    const mark = this.#mark();
    const items = await (this.#store ? this.#store.getItems(limit) : this.session.getItems(limit, ...rest));
    if (limit === undefined) this.#remember(items, mark);
    return items;
  }

  addItems(items, ...rest) {
    return this.#queued(async () => {
      const batch = await this.#withLateOutputs(items);
      return this.#counted(() => this.session.addItems(batch, ...rest));
    });
  }

  popItem(...args) {
    return this.#write(() => this.session.popItem(...args));
  }

  clearSession(...args) {
    return this.#write(() => this.session.clearSession(...args));
  }

  /** The runner's call (it passes an ownership argument, or before releases had one, a
   * response id) waits for open calls and leaves dead ones out; the application's runs as it is. */
  runCompaction(args, ...rest) {
    return this.#write(() => (this.#automatic(args, rest) ? this.#compact(args, rest) : this.session.runCompaction(args, ...rest)));
  }

  #automatic(args, rest) {
    if (args?.force === true) return false;
    if (typeof this.session.addItemsWithCompactionOwnership === 'function') {
      return rest.length >= 2 && rest[1] !== undefined; // the runner passes its token, or null
    }
    return Boolean(args?.responseId);
  }

  /** `operation` after every earlier queued one (even a failed one). */
  #queued(operation) {
    const result = this.#queue.tail.then(operation);
    this.#queue.tail = result.then(() => undefined, () => undefined);
    return result;
  }

  /** A write, counted before and after it, so a read that overlaps it is not trusted. */
  async #counted(operation) {
    this.#queue.writes += 1;
    try {
      return await operation();
    } finally {
      this.#queue.writes += 1;
    }
  }

  #write(operation) {
    return this.#queued(() => this.#counted(operation));
  }

  /** When a read starts: the writes counted through the wrappers and the SDK's own generation. */
  #mark() {
    return { writes: this.#queue.writes, generation: this.session.mutationGeneration };
  }

  #current(mark) {
    return mark.writes === this.#queue.writes && mark.generation === this.session.mutationGeneration;
  }

  #remember(items, mark) {
    if (this.#current(mark) && Array.isArray(items)) this.#snapshot = { keys: callKeys(items), mark };
  }

  /** The batch with each output whose call is neither earlier in it nor stored as text. The
   * stored calls are read only for a batch that holds such an output, and only when no write
   * has happened since the latest whole read (the runner's own, before it stores a resume). */
  async #withLateOutputs(items) {
    if (!Array.isArray(items)) return items;
    const batch = new Set();
    let alone = false;
    for (const item of items) {
      const key = pairingKey(item);
      if (key?.startsWith('call:')) batch.add(key);
      else if (key?.startsWith('result:') && !batch.has(`call:${key.slice(7)}`)) alone = true;
    }
    if (!alone) return items;
    let stored = this.#snapshot && this.#current(this.#snapshot.mark) ? this.#snapshot.keys : null;
    let itemsRead = 0;
    if (!stored) {
      const read = await this.session.getItems();
      stored = callKeys(read);
      itemsRead = read.length;
    }
    batch.clear();
    const out = [];
    for (const item of items) {
      const key = pairingKey(item);
      if (key?.startsWith('call:')) batch.add(key);
      const call = key?.startsWith('result:') ? `call:${key.slice(7)}` : null;
      if (call && !stored.has(call) && !batch.has(call)) {
        out.push(lateOutputMessage(item));
        keep(this.lateOutputs, { output: key.slice(7), itemsRead });
      } else {
        out.push(item);
      }
    }
    return out;
  }

  /** An automatic compaction, the SDK's own, with its decision's read taken through a view of
   * the store: a live call there defers it, dead calls are left out, and the exchange gets the
   * stored items before the latest compaction item in front when it begins with that item. */
  async #compact(args, rest) {
    const session = this.session;
    const store = session.underlyingSession; // the store the SDK's session reads and writes
    const exchange = rest[2];
    const handed = Array.isArray(exchange?.items) ? { ...exchange, items: [...exchange.items] } : null;
    if (!store || typeof store.getItems !== 'function') return session.runCompaction(args, ...rest);
    let hidden = null;
    if (!handed && Array.isArray(session.sessionItems)) {
      // No exchange: the SDK decides on the history it holds, when it holds one (it reads the
      // store through the view otherwise). Check that, and make it read again past a dead call.
      const held = session.sessionItems;
      const { live, dead } = openCalls(held);
      if (live.length > 0) {
        keep(this.deferrals, { open: named(held, live), itemsRead: 0 });
        return null;
      }
      if (dead.length > 0) {
        session.sessionItems = undefined;
        session.compactionCandidateItems = undefined;
      }
    }
    // The first read decides, unless the SDK decides on the history it holds (no exchange).
    let decided = !handed && Array.isArray(session.sessionItems) && Array.isArray(session.compactionCandidateItems);
    const failures = []; // the store's write errors during the compaction, in order
    // What the replacement clears, to put back where the SDK does not: its own read just before
    // the clear (0.11.0 on, the history it restores from), or the store read then (before
    // 0.11.0, which restore nothing).
    const restores = typeof session.restoreUnderlyingSessionItems === 'function';
    let lastRead = null;
    let before = null;
    const view = new Proxy(store, {
      get: (target, key) => {
        if (key === 'getItems') {
          return async (limit) => {
            if (decided) {
              const items = await store.getItems(limit); // one read decides; the rest are the store's
              if (limit === undefined || items.length < limit) lastRead = items;
              return items;
            }
            decided = true;
            const { items, dead } = await this.#decisionRead(store, limit, handed);
            hidden = dead;
            return items;
          };
        }
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (!WRITES.includes(key)) return value.bind(target);
        return async (...args) => {
          if (key === 'clearSession' && before === null) before = lastRead ?? (await store.getItems());
          try {
            return await value.apply(target, args);
          } catch (error) {
            failures.push(error);
            throw error;
          }
        };
      },
    });
    session.underlyingSession = view;
    this.#store = store;
    let result;
    try {
      result = await session.runCompaction(args, ...(handed ? [rest[0], rest[1], handed, ...rest.slice(3)] : rest));
    } catch (error) {
      if (error === DEFER) return null;
      const first = failures.indexOf(error);
      // The SDK put nothing back (before 0.11.0), or its restore failed too: put it back here.
      if (before !== null && first >= 0 && (!restores || failures.length > first + 1)) {
        try {
          await store.clearSession();
          if (before.length > 0) await store.addItems(before);
        } catch (restoreError) {
          failures.push(restoreError);
        }
      }
      // The first failure is thrown; the SDK only logs its restore's: attach the restore's.
      const later = failures.slice(failures.indexOf(error) + 1);
      if (failures.includes(error) && later.length > 0 && error instanceof Error && error.cause === undefined) {
        error.cause = later.length === 1 ? later[0] : new AggregateError(later, 'restoring the history failed too');
      }
      throw error;
    } finally {
      session.underlyingSession = store;
      this.#store = null;
      if (!result && hidden?.removed.length) {
        // The SDK may hold the history it read without the dead calls: an output of one stored
        // later would follow no call there. It reads the store again next time.
        session.sessionItems = undefined;
        session.compactionCandidateItems = undefined;
      }
    }
    if (result && hidden?.removed.length) keep(this.retirements, hidden);
    return result;
  }

  /** The SDK's read for its decision: the latest `limit` stored items without dead calls (all
   * of them when the exchange begins with a compaction item, whose prefix it then gets). */
  async #decisionRead(store, limit, handed) {
    const whole = limit === undefined || handed?.items[0]?.type === 'compaction';
    let want = whole ? undefined : limit;
    for (;;) {
      const read = await store.getItems(want);
      const { live, dead } = openCalls(read);
      if (live.length > 0) {
        keep(this.deferrals, { open: named(read, live), itemsRead: read.length });
        throw DEFER;
      }
      const gone = new Set(dead);
      const kept = dead.length ? read.filter((_, p) => !gone.has(p)) : read;
      if (whole || kept.length >= limit || read.length < want) {
        const items = whole ? kept : kept.slice(-limit);
        const at = handed ? items.findLastIndex((item) => item?.type === 'compaction') : -1;
        if (at > 0 && handed.items[0]?.type === 'compaction') handed.items.unshift(...items.slice(0, at));
        return { items, dead: { removed: named(read, dead), itemsRead: read.length } };
      }
      want = limit + dead.length;
    }
  }
}

/** Wrap a compaction session so automatic compaction waits while a call is pending. */
export function deferCompactionWhilePending(session) {
  return session instanceof DeferCompactionWhilePending ? session : new DeferCompactionWhilePending(session);
}

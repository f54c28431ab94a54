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
//   history drops them. The decision's read costs at most one read more than the SDK's own,
//   however many dead calls the history holds.
// - The replacement is the SDK's (clear, then add), or, where the store offers the SDK's
//   `applyHistoryTransaction`, one transaction that replaces only the items that change. After
//   any failure of a read or write the workaround sees during a compaction, it checks the store
//   and puts back the history read before the clear where the SDK did not (its own restore
//   needs a read that can fail too); when the history is as it was, the compaction counts as
//   skipped (`failures` keeps the store's first error) and the turn, whose answer is stored,
//   does not raise. When it cannot put the history back, the first failure is raised, a failed
//   restore's attached as its `cause`.
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
//   runner compares what it wrote with what is stored through
//   `prepareHistoryItemsForPersistenceComparison`, where an output and its text compare equal,
//   so a resume whose write lost its acknowledgement is retried as the bare SDK retries it.
// - Several session objects on one store: the check and the write run in one queue with every
//   compaction and write forwarded by any wrapper in the process whose store answers the same
//   session id (two workers' handles on one database, a session built per request, one kept
//   from the pause), so a resume racing another worker's compaction sees the store as it is at
//   the write. Across processes no such queue exists; see `docs/workaround.md` for what holds.
// - A compaction the application asks for itself runs unchanged: `force: true`, or on 0.17.1
//   and later any call without the runner's ownership argument. Before 0.17.1 the runner passes
//   only the response id, as an application would, so there a call with a `responseId` counts
//   as the runner's.
//
// What it keeps: `deferrals`, `retirements`, `lateOutputs` and `failures`, the latest 64 of
// each, to log or assert on.

export const KEPT = 64; // deferrals, retirements, late outputs and failures kept
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
const OPTIONAL_SYNC = ['prepareHistoryItemForModelInput', 'preserveReasoningItemIdsForPersistence'];
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
  const request = item.providerData?.approval_request_id ?? item.providerData?.approvalRequestId ?? '?';
  const name = item.type === 'hosted_tool_call' ? `${MCP_RESPONSE}:${request}` : `${item.name ?? item.type}:${item.callId ?? '?'}`;
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

/** An item as the runner compares what it wrote with what is stored: an output (or MCP approval
 * response) as the text a late output is stored as, so the two compare equal; any other as it is. */
function comparable(item) {
  return pairingKey(item)?.startsWith('result:') ? lateOutputMessage(item) : item;
}

const json = (items) => JSON.stringify(items);

/** Whether `items` begins with `prefix`, item for item. */
function beginsWith(items, prefix) {
  return items.length >= prefix.length && json(items.slice(0, prefix.length)) === json(prefix);
}

/** How many leading items `a` and `b` share. */
function sharedPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && json([a[n]]) === json([b[n]])) n += 1;
  return n;
}

let operations = 0;
/** An operation id for `applyHistoryTransaction`: unique, and kept when the same one is retried. */
function operationId() {
  operations += 1;
  const random = globalThis.crypto?.randomUUID?.() ?? Math.random().toString(36).slice(2);
  return `deferCompactionWhilePending:${random}:${operations}`;
}

// Thrown by the decision's read when a call is live; `runCompaction` returns null for it.
const DEFER = Symbol('defer compaction while a call is pending');
// Marks a failed replacement of the stored history's end that found another writer's items.
const CHANGED = Symbol('the stored history changed meanwhile');

// One queue and one write count per stored session in this process: every wrapper whose store
// answers the same session id shares it, for as long as one of them lives.
const QUEUES = new Map(); // session id -> WeakRef of its queue
const FORGET = new FinalizationRegistry((id) => {
  if (!QUEUES.get(id)?.deref()) QUEUES.delete(id);
});

function queueFor(id) {
  let queue = QUEUES.get(id)?.deref();
  if (!queue) {
    queue = { tail: Promise.resolve(), writes: 0 };
    QUEUES.set(id, new WeakRef(queue));
    FORGET.register(queue, id);
  }
  return queue;
}

/**
 * One automatic compaction's use of the store, through the view the SDK reads and writes: its
 * reads (the latest whole one, the history before its clear), the failures it met, and on a store
 * with `applyHistoryTransaction`, its clear and the add after it made one transaction that
 * replaces only the items that change (retried once under the same operation id, which applies
 * it once: a lost acknowledgement is repaired).
 */
class Replacement {
  constructor(store) {
    this.store = store;
    this.failures = []; // the store's errors, in order
    this.lastRead = null; // the latest whole read
    this.before = null; // the history before the clear
    this.transactional = typeof store.applyHistoryTransaction === 'function';
    this.cleared = false; // a transactional clear waiting for its add
    this.current = null; // what a transactional store holds, as far as known
  }

  async #try(operation) {
    try {
      return await operation();
    } catch (error) {
      this.failures.push(error);
      throw error;
    }
  }

  async read(limit) {
    const items = await this.#try(() => this.store.getItems(limit));
    if (limit === undefined || items.length < limit) this.lastRead = items;
    return items;
  }

  async clear() {
    if (this.before === null) {
      this.before = this.lastRead ?? (await this.read());
      this.current = this.before;
    }
    if (!this.transactional) return this.#try(() => this.store.clearSession());
    this.cleared = true;
    return undefined;
  }

  async add(items) {
    if (!this.transactional || !this.cleared) return this.#try(() => this.store.addItems(items));
    this.cleared = false;
    return this.#replace(items);
  }

  /** A clear with no add after it (the SDK adds nothing when the compaction returned nothing). */
  async settle() {
    if (this.cleared) {
      this.cleared = false;
      await this.#replace([]);
    }
  }

  /** One transaction from what the store holds to `items`, conditional on the part it replaces. */
  async #replace(items) {
    const from = this.current ?? (await this.read());
    this.current = from;
    const keep = Math.min(sharedPrefix(from, items), Math.max(from.length - 1, 0));
    const transaction = { type: 'replace_suffix', expectedSuffix: from.slice(keep), replacement: items.slice(keep) };
    if (json(transaction.expectedSuffix) === json(transaction.replacement)) return;
    const args = { operationId: operationId(), transaction };
    try {
      await this.store.applyHistoryTransaction(args);
    } catch (error) {
      this.failures.push(error);
      try {
        // The same operation again: it succeeds when the first one was applied (its answer was
        // lost), and applies it otherwise; it fails only when it was never applied.
        await this.store.applyHistoryTransaction(args);
      } catch {
        throw error; // nothing applied: the store holds what it held, with others' writes
      }
    }
    this.current = items;
  }

  /** After a failure: the store holds the history before the clear again (or that history with
   * items appended after it), put back here where the SDK did not. What was done, or null when it
   * could not be put back (the restore's error is among the failures). */
  async restore() {
    let now = null;
    try {
      now = await this.store.getItems();
    } catch (error) {
      this.failures.push(error);
    }
    if (now && beginsWith(now, this.before)) return { restored: false };
    try {
      if (this.transactional && now) {
        this.current = now;
        await this.#replace(this.before);
      } else {
        await this.store.clearSession();
        if (this.before.length > 0) await this.store.addItems(this.before);
      }
      return { restored: true };
    } catch (error) {
      if (!this.failures.includes(error)) this.failures.push(error);
      return null;
    }
  }
}

/** A compaction session that waits for every call's output before it compacts automatically. */
export class DeferCompactionWhilePending {
  #queue = null; // a promise of the queue shared by every wrapper of this store's session id
  #shared = null; // that queue, once known
  #store = null; // the store the SDK reads, while a decision reads it through the view
  #snapshot = null; // the call keys of the latest whole read, and when it was taken
  #deadSeen = false; // the latest whole read held a dead call

  constructor(session) {
    if (!session || typeof session.runCompaction !== 'function') {
      throw new TypeError('deferCompactionWhilePending needs an OpenAIResponsesCompactionSession (a session with runCompaction)');
    }
    this.session = session;
    this.deferrals = [];
    this.retirements = [];
    this.lateOutputs = [];
    this.failures = [];
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
        this.#stored(items, (batch) => session.addItemsWithCompactionOwnership(batch, ...rest));
    }
    if (session.acceptsRunContext === true) this.acceptsRunContext = true;
  }

  getSessionId(...args) {
    return this.session.getSessionId(...args);
  }

  /** The stored items, as the wrapped session reads them (while the SDK decides on a
   * compaction, from the store itself, never through the decision's view). */
  async getItems(limit, ...rest) {
    await this.#queueReady();
    const mark = this.#mark();
    const items = await (this.#store ? this.#store.getItems(limit) : this.session.getItems(limit, ...rest));
    if (limit === undefined) this.#remember(items, mark);
    return items;
  }

  addItems(items, ...rest) {
    return this.#stored(items, (batch) => this.session.addItems(batch, ...rest));
  }

  popItem(...args) {
    return this.#write(() => this.session.popItem(...args));
  }

  clearSession(...args) {
    return this.#write(() => this.session.clearSession(...args));
  }

  /** The wrapped session's own comparison (when it has one), with each output as the text a late
   * output is stored as: a resume whose output was stored as text, and whose write lost its
   * acknowledgement, finds what it wrote when it is retried. */
  prepareHistoryItemsForPersistenceComparison(items) {
    const prepare = this.session.prepareHistoryItemsForPersistenceComparison;
    const prepared = typeof prepare === 'function' ? prepare.call(this.session, items) : items;
    return Array.isArray(prepared) ? prepared.map(comparable) : prepared;
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

  /** The queue this wrapper shares with every wrapper in the process on the same stored
   * session (its store's session id). */
  #queueReady() {
    this.#queue ??= Promise.resolve()
      .then(() => this.session.getSessionId())
      .then(
        (id) => (this.#shared = queueFor(String(id))),
        (error) => {
          this.#queue = null; // asked again next time
          throw error;
        },
      );
    return this.#queue;
  }

  /** `operation` after every earlier queued one (even a failed one), of every wrapper on the
   * same stored session. */
  #queued(operation) {
    return this.#queueReady().then((queue) => {
      const result = queue.tail.then(operation);
      queue.tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    });
  }

  /** A write, counted before and after it, so a read that overlaps it is not trusted. */
  async #counted(operation) {
    this.#shared.writes += 1;
    try {
      return await operation();
    } finally {
      this.#shared.writes += 1;
    }
  }

  #write(operation) {
    return this.#queued(() => this.#counted(operation));
  }

  /** When a read starts: the writes counted through every wrapper of the stored session, and the
   * SDK's own generation. */
  #mark() {
    return { queue: this.#shared, writes: this.#shared.writes, generation: this.session.mutationGeneration };
  }

  #current(mark) {
    return mark.queue === this.#shared && mark.writes === this.#shared.writes && mark.generation === this.session.mutationGeneration;
  }

  #remember(items, mark) {
    if (!Array.isArray(items)) return;
    this.#deadSeen = openCalls(items).dead.length > 0;
    if (this.#current(mark)) this.#snapshot = { keys: callKeys(items), mark };
  }

  /** `items` written by `write`, in the queue: each output whose call is gone stored as text,
   * and the store read again after a write that stored an output beside a stored call (a write
   * that failed, too: it may have committed before it failed). */
  #stored(items, write) {
    return this.#queued(async () => {
      const { batch, answered } = await this.#withLateOutputs(items);
      let failed = null;
      let done;
      try {
        done = await this.#counted(() => write(batch));
      } catch (error) {
        failed = { error };
      }
      if (answered.size > 0) {
        try {
          await this.#verify(answered);
        } catch (error) {
          if (!failed) throw error;
          if (failed.error instanceof Error && failed.error.cause === undefined) failed.error.cause = error;
        }
      }
      if (failed) throw failed.error;
      return done;
    });
  }

  /** After a write that answered stored calls: the queue orders every writer in this process,
   * but another process's compaction may have dropped a call between the read that found it and
   * the write of its output. One read finds any output of the batch stored without its call,
   * and the items from it on are written again with it as text. */
  async #verify(answered) {
    for (let attempt = 1; ; attempt += 1) {
      const mark = this.#mark();
      let read;
      try {
        read = await this.session.getItems();
      } catch (error) {
        keep(this.failures, { error, restored: false });
        return;
      }
      this.#remember(read, mark);
      const calls = new Set();
      const alone = [];
      read.forEach((item, position) => {
        const key = pairingKey(item);
        if (key?.startsWith('call:')) calls.add(key.slice(5));
        else if (key && answered.has(key.slice(7)) && !calls.has(key.slice(7))) alone.push(position);
      });
      if (alone.length === 0) return;
      const tail = read.slice(alone[0]);
      const healed = tail.map((item, n) => (alone.includes(alone[0] + n) ? lateOutputMessage(item) : item));
      try {
        await this.#counted(() => this.#replaceTail(tail, healed));
      } catch (error) {
        if (error?.[CHANGED] && attempt < 3) continue; // another writer came between: read again
        throw error;
      }
      for (const position of alone) keep(this.lateOutputs, { output: pairingKey(read[position]).slice(7), itemsRead: read.length });
      return;
    }
  }

  /** The stored history's last items, `tail`, replaced by `healed`: in one transaction where the
   * store offers one, else popped (each checked against `tail`) and written again; what was
   * popped is put back if a step fails. */
  async #replaceTail(tail, healed) {
    const session = this.session;
    const store = session.underlyingSession;
    session.sessionItems = undefined; // the SDK reads the store again
    session.compactionCandidateItems = undefined;
    if ('mutationGeneration' in session) session.mutationGeneration = {}; // ownership read before is stale
    if (typeof store.applyHistoryTransaction === 'function') {
      const args = { operationId: operationId(), transaction: { type: 'replace_suffix', expectedSuffix: tail, replacement: healed } };
      try {
        await store.applyHistoryTransaction(args);
      } catch (error) {
        try {
          await store.applyHistoryTransaction(args); // applied once, whether or not it was
        } catch {
          error[CHANGED] = true;
          throw error;
        }
      }
      return;
    }
    const popped = [];
    try {
      for (let n = tail.length - 1; n >= 0; n -= 1) {
        const item = await store.popItem();
        if (item === undefined) break;
        popped.push(item);
        if (json([item]) !== json([tail[n]])) {
          throw Object.assign(new Error('the stored history changed while a late output was written as text'), { [CHANGED]: true });
        }
      }
      await store.addItems(popped.length === tail.length ? healed : []);
    } catch (error) {
      try {
        if (popped.length > 0) await store.addItems(popped.reverse());
      } catch (restoreError) {
        if (error instanceof Error && error.cause === undefined) error.cause = restoreError;
        delete error[CHANGED];
      }
      throw error;
    }
  }

  /** The batch with each output whose call is neither earlier in it nor stored as text. The
   * stored calls are read only for a batch that holds such an output, and only when a write has
   * happened, through any wrapper of the stored session, since the latest whole read (the
   * runner's own, before it stores a resume). */
  async #withLateOutputs(items) {
    const answered = new Set(); // outputs kept beside a stored call (`type:id` of the call)
    if (!Array.isArray(items)) return { batch: items, answered };
    const batch = new Set();
    let alone = false;
    for (const item of items) {
      const key = pairingKey(item);
      if (key?.startsWith('call:')) batch.add(key);
      else if (key?.startsWith('result:') && !batch.has(`call:${key.slice(7)}`)) alone = true;
    }
    if (!alone) return { batch: items, answered };
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
        if (call && !batch.has(call)) answered.add(key.slice(7));
        out.push(item);
      }
    }
    return { batch: out, answered };
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
    const replacement = new Replacement(store);
    const view = new Proxy(store, {
      get: (target, key) => {
        if (key === 'getItems') {
          return async (limit) => {
            if (decided) return replacement.read(limit); // one read decides; the rest are the store's
            decided = true;
            const { items, dead } = await this.#decisionRead(replacement, limit, handed);
            hidden = dead;
            return items;
          };
        }
        if (key === 'clearSession') return () => replacement.clear();
        if (key === 'addItems') return (items) => replacement.add(items);
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (key !== 'popItem') return value.bind(target);
        return async (...popped) => {
          try {
            return await value.apply(target, popped);
          } catch (error) {
            replacement.failures.push(error);
            throw error;
          }
        };
      },
    });
    session.underlyingSession = view;
    this.#store = store;
    let result = null;
    let thrown = null;
    try {
      result = await session.runCompaction(args, ...(handed ? [rest[0], rest[1], handed, ...rest.slice(3)] : rest));
      await replacement.settle();
    } catch (error) {
      if (error === DEFER) return null;
      thrown = { error };
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
    if (thrown || replacement.failures.length > 0) return this.#recover(replacement, thrown?.error, result, hidden);
    if (result && hidden?.removed.length) keep(this.retirements, hidden);
    return result;
  }

  /** After a compaction met a failure: the history the clear began from is put back where
   * needed. A failure of the store's that leaves the history as it was (or the compaction done)
   * is kept in `failures`, not raised; otherwise the first failure is raised, a failed restore's
   * attached as its `cause`. */
  async #recover(replacement, error, result, hidden) {
    const session = this.session;
    let restored = false;
    let held = true; // the store holds the history as it was, or as the compaction wrote it
    if (error !== undefined && replacement.before !== null) {
      const done = await replacement.restore();
      held = done !== null;
      restored = Boolean(done?.restored);
      session.sessionItems = undefined; // the SDK reads the store again next time
      session.compactionCandidateItems = undefined;
    }
    const failures = replacement.failures;
    const first = failures[0] ?? error;
    if (held && (error === undefined || failures.includes(error))) {
      keep(this.failures, { error: first, restored });
      if (result && hidden?.removed.length) keep(this.retirements, hidden);
      return error === undefined ? result : null;
    }
    const later = failures.slice(failures.indexOf(first) + 1);
    if (later.length > 0 && first instanceof Error && first.cause === undefined) {
      first.cause = later.length === 1 ? later[0] : new AggregateError(later, 'restoring the history failed too');
    }
    throw first;
  }

  /** The SDK's read for its decision: the latest `limit` stored items without dead calls (all
   * of them when the exchange begins with a compaction item, whose prefix it then gets). At most
   * one read more than the SDK's own, however many dead calls there are: the whole history at
   * once when the latest whole read held a dead call, or a second read of it when dead calls
   * took places among the latest `limit`. */
  async #decisionRead(replacement, limit, handed) {
    const everything = limit === undefined || handed?.items[0]?.type === 'compaction';
    const bounded = !everything && !this.#deadSeen;
    let read = await replacement.read(bounded ? limit : undefined);
    let { live, dead } = openCalls(read);
    if (bounded && live.length === 0 && dead.length > 0 && read.length === limit && read.length - dead.length < limit) {
      read = await replacement.read();
      ({ live, dead } = openCalls(read));
    }
    if (live.length > 0) {
      keep(this.deferrals, { open: named(read, live), itemsRead: read.length });
      throw DEFER;
    }
    const gone = new Set(dead);
    const kept = dead.length ? read.filter((_, p) => !gone.has(p)) : read;
    const items = everything ? kept : kept.slice(-limit);
    const at = handed ? items.findLastIndex((item) => item?.type === 'compaction') : -1;
    if (at > 0 && handed.items[0]?.type === 'compaction') handed.items.unshift(...items.slice(0, at));
    return { items, dead: { removed: named(read, dead), itemsRead: read.length } };
  }
}

/** Wrap a compaction session so automatic compaction waits while a call is pending. */
export function deferCompactionWhilePending(session) {
  return session instanceof DeferCompactionWhilePending ? session : new DeferCompactionWhilePending(session);
}

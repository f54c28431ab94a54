// The JS workaround's store fuzzer: `js/workaround.mjs` (or the bare SDK) driven through `run()` on
// the pinned @openai/agents, against a store that fails at a chosen write and a scheduler that
// orders every store call and model call at random. It drives and records; it judges nothing. Each
// trial writes one JSON line: what the model and the compaction endpoint were sent, every write
// the store committed (with the store after it), the errors each run raised, and the reads. The
// Python side (`approval_compaction.testing.jsfuzz`) judges them with the study's pairing judge.
//
//   node js/storefuzz.mjs < plan.json
//
// Beside another release's node_modules (a copy of this file and the workaround in its js/
// folder, as the harness runs there), it runs on that release.
//
// A plan is `{"trials": [...]}` (each trial as `trial()` reads it), or `{"fuzz": {"seed", "runs",
// "wrapped", "race"}}`: fast-check draws `runs` trials (random history, hook, mode, steps, one
// failing write) and runs each with its own scheduler, bare and wrapped alike when `wrapped` is
// "both"; or `{"batch": {"pairs", "wrapped"}}`: how many item properties storing one batch reads.
import * as agents from '@openai/agents';
import { z } from 'zod';
import { deferCompactionWhilePending } from './workaround.mjs';

// fast-check is the repository's (a dev dependency); `FAST_CHECK` names it when this file runs
// beside another release's node_modules.
const fc = (await import(process.env.FAST_CHECK ?? 'fast-check')).default;
const { Agent, run, tool, RunState, Usage } = agents;
const Compaction = agents.OpenAIResponsesCompactionSession;
const MODEL = 'gpt-4.1'; // an OpenAI model name, as the compaction session requires
const TOOL = 'approve_me';
const HOWS = ['before', 'after', 'half']; // a write fails before it commits, after, or halfway

agents.setTracingDisabled?.(true);

const clone = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** A store as a database keeps one: every read and write copies (JSON), each call may wait for
 * the scheduler, and each write numbered by a fault's `at` (1 on) fails as its `how` says. */
export class FaultStore {
  constructor(items = [], { faults = [], tick = null } = {}) {
    this.items = clone(items);
    this.faults = faults;
    this.tick = tick;
    this.writes = 0;
    this.reads = { calls: 0, items: 0 };
    this.ledger = []; // each write that changed the items: { op, items (added), after, failed }
    this.failed = null; // the first injected failure, once it fired
  }
  async wait(label) {
    if (this.tick) await this.tick(label);
  }
  async getSessionId() {
    return 'fuzz-session';
  }
  async getItems(limit) {
    await this.wait('getItems');
    const out = limit === undefined ? this.items : limit <= 0 ? [] : this.items.slice(-limit);
    this.reads.calls += 1;
    this.reads.items += out.length;
    return clone(out);
  }
  async addItems(items) {
    await this.wait('addItems');
    const added = clone(items);
    this.write('add', (part) => {
      const written = part ? added.slice(0, Math.ceil(added.length / 2)) : added;
      this.items.push(...written);
      return written;
    });
  }
  async popItem() {
    await this.wait('popItem');
    const last = this.items.at(-1);
    this.write('pop', () => (this.items.pop(), []));
    return clone(last);
  }
  async clearSession() {
    await this.wait('clearSession');
    this.write('clear', (part) => (this.items.splice(0, part ? Math.ceil(this.items.length / 2) : this.items.length), []));
  }
  /** One write: `apply(half)` changes the items and returns those it added; the failing write
   * throws after it as told. */
  write(op, apply) {
    this.writes += 1;
    const how = this.faults.find((f) => f.at === this.writes)?.how ?? null;
    if (how) this.failed ??= { at: this.writes, op, how };
    if (how === 'before') {
      throw new Error(`store write ${this.writes} (${op}) failed before it committed`);
    }
    const added = apply(how === 'half' && op !== 'pop');
    this.ledger.push({ op, items: added, after: clone(this.items), failed: Boolean(how) });
    if (how) {
      throw new Error(`store write ${this.writes} (${op}) failed ${how === 'half' ? 'halfway' : 'after it committed'}`);
    }
  }
}

/** Ids for one trial's model answers and compactions, shared by its concurrent runs. */
class Counter {
  n = 0;
  next() {
    this.n += 1;
    return this.n;
  }
}

function userText(item) {
  if (typeof item?.content === 'string') return item.content;
  return (item?.content ?? []).map((part) => part.text ?? '').join('');
}

const isUser = (item) => item?.role === 'user' && (item.type ?? 'message') === 'message';

/** The model: a question that begins with `pause` gets a call that needs approval, anything else
 * (a question, a tool's output) an answer. It keeps what the runner handed it. */
class ScriptedModel {
  constructor(counter, seen, tick) {
    this.counter = counter;
    this.seen = seen;
    this.tick = tick;
  }
  async getResponse(request) {
    const input = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
    this.seen?.push(clone(input));
    if (this.tick) await this.tick('model');
    const n = this.counter.next();
    const last = input.at(-1);
    const output = isUser(last) && userText(last).startsWith('pause')
      ? [{ type: 'function_call', id: `fc_${n}`, callId: `call_${n}`, name: TOOL, arguments: '{}', status: 'completed' }]
      : [{ type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `answer ${n}` }] }];
    return { usage: new Usage(), output, responseId: `resp_${n}` };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse() {
    throw new Error('the fuzzer runs without streaming');
  }
}

/** The compaction endpoint: the user's messages it was given (by input, or the stored ones a
 * `previous_response_id` names), then one new compaction item. */
function compactionClient(counter, sent, store, tick) {
  return {
    responses: {
      compact: async (request) => {
        sent.push(clone(request.input ?? []));
        if (tick) await tick('compact');
        const n = counter.next();
        const users = (request.input ?? store.items).filter(isUser);
        const output = [
          ...users.map((u) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: userText(u) }] })),
          { type: 'compaction', id: `cmp_${n}`, encrypted_content: `summary ${n}` },
        ];
        return { output, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
      },
    },
  };
}

const HOOKS = {
  yes: () => true,
  no: () => false,
  default: undefined, // the SDK's own: ten candidate items
};

/** A stored history as the SDK writes one, from kinds: `user`, `answer`, `pair` (a call and its
 * output), `dead` (a call the user moved on from: a question follows it), `compaction` (the user's
 * messages so far kept, then a compaction item). */
export function history(kinds) {
  const items = [];
  kinds.forEach((kind, n) => {
    const id = `h${n}`;
    const call = { type: 'function_call', id: `fc_${id}`, callId: `call_${id}`, name: TOOL, arguments: '{}', status: 'completed' };
    if (kind === 'user') items.push({ role: 'user', content: `question ${id}` });
    if (kind === 'answer') items.push({ type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `answer ${id}` }] });
    if (kind === 'pair') {
      items.push(call, { type: 'function_call_result', callId: call.callId, name: TOOL, status: 'completed', output: { type: 'text', text: `done ${id}` } });
    }
    if (kind === 'dead') items.push({ role: 'user', content: `pause ${id}` }, call, { role: 'user', content: `instead ${id}` });
    if (kind === 'compaction') {
      const users = items.filter(isUser);
      items.length = 0;
      items.push(...users, { type: 'compaction', id: `cmp_${id}`, encrypted_content: `summary ${id}` });
    }
  });
  return items;
}

/** The pieces of one conversation on one store: the session (wrapped when `spec.wrapped`), an
 * agent whose tool needs approval, and what the model and the compaction endpoint were sent. */
export function conversation(spec, tick = null, items = history(spec.history ?? [])) {
  const counter = new Counter();
  const modelInputs = [];
  const compactionInputs = [];
  const store = new FaultStore(items, { faults: spec.faults ?? (spec.fault ? [spec.fault] : []), tick });
  const options = {
    client: compactionClient(counter, compactionInputs, store, tick),
    model: MODEL,
    underlyingSession: store,
    compactionMode: spec.mode ?? 'input',
  };
  if (HOOKS[spec.hook ?? 'yes']) options.shouldTriggerCompaction = HOOKS[spec.hook ?? 'yes'];
  const inner = new Compaction(options);
  const session = spec.wrapped ? deferCompactionWhilePending(inner) : inner;
  const approve = tool({
    name: TOOL,
    description: 'Needs a human to approve it.',
    parameters: z.object({}),
    needsApproval: true,
    execute: async () => 'approved and done',
  });
  const seen = spec.keepInputs === false ? null : modelInputs;
  const agent = new Agent({ name: 'fuzz', instructions: 'Answer.', model: new ScriptedModel(counter, seen, tick), tools: [approve] });
  return { store, session, agent, modelInputs, compactionInputs };
}

/**
 * One trial: `history` (kinds, see `history`), `hook` (yes, no, default), `mode` (input,
 * previous_response_id), `wrapped`, `fault` ({at, how} or null; or `faults`, a list of them),
 * `roundTrip` (the paused state
 * through its string), and `steps`: groups of operations run together, each `ask`, `pause`,
 * `resume` (approve the oldest paused run), `reject`, or `compact` (the application's own
 * `runCompaction({ responseId })`). `tick` orders the concurrent calls.
 */
export async function trial(spec, tick = null) {
  const { store, session, agent, modelInputs, compactionInputs } = conversation(spec, tick);
  const paused = [];
  const outcomes = [];
  let question = 0;
  const one = async (op) => {
    try {
      if (op === 'ask' || op === 'pause') {
        question += 1;
        const result = await run(agent, `${op === 'pause' ? 'pause' : 'question'} ${question}`, { session });
        if (result.interruptions?.length) {
          paused.push(spec.roundTrip ? await RunState.fromString(agent, result.state.toString()) : result.state);
        }
        return { op, outcome: result.interruptions?.length ? 'paused' : 'answered' };
      }
      if (op === 'compact') {
        // The application's own compaction, by the latest response id, as its code would ask.
        const done = await session.runCompaction({ responseId: `resp_${question}` });
        return { op, outcome: done ? 'compacted' : 'skipped' };
      }
      const state = paused.shift();
      if (!state) return { op, outcome: 'nothing paused' };
      for (const item of state.getInterruptions()) {
        if (op === 'resume') state.approve(item);
        else state.reject(item);
      }
      await run(agent, state, { session });
      return { op, outcome: 'answered' };
    } catch (error) {
      const cause = error?.cause ?? error?.errors?.[1];
      return { op, outcome: 'raised', error: String(error?.message ?? error), cause: cause ? String(cause?.message ?? cause) : null };
    }
  };
  for (const group of spec.steps ?? []) {
    outcomes.push(...(await Promise.all(group.map(one))));
  }
  return {
    spec,
    outcomes,
    model_inputs: modelInputs,
    compaction_inputs: compactionInputs,
    ledger: store.ledger,
    initial: history(spec.history ?? []),
    stored: store.items,
    failed: store.failed,
    writes: store.writes,
    reads: store.reads,
    retirements: spec.wrapped ? session.retirements.length : 0,
  };
}

// The races: a run pauses, and its resume runs together with a new question (the user moved
// on), at once or after one question more; one more question then sends what they stored.
const RACES = [[['pause'], ['resume', 'ask']], [['pause'], ['ask'], ['resume', 'ask']]];

/** A trial's shape, as fast-check draws it: a history of up to 8 kinds, then up to 5 groups of
 * one or two operations (or the race), and a write to fail (none, at times). */
export function trials(race = false) {
  const kind = fc.constantFrom('user', 'answer', 'pair', 'dead', 'compaction');
  const op = fc.constantFrom('ask', 'pause', 'resume', 'reject');
  const steps = fc.array(fc.array(op, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 5 });
  return fc.record({
    history: fc.array(kind, { maxLength: 8 }),
    hook: fc.constantFrom('yes', 'no', 'default'),
    mode: fc.constantFrom('input', 'previous_response_id'),
    roundTrip: fc.boolean(),
    steps: race ? fc.constantFrom(...RACES) : steps,
    fault: fc.option(fc.record({ at: fc.integer({ min: 1, max: 12 }), how: fc.constantFrom(...HOWS) }), { nil: null }),
  });
}

/** Runs `runs` drawn trials (seeded; only the race when `race`), each bare and wrapped as
 * `wrapped` says, and writes each trial's record as it ends. A trial always ends with a plain
 * question, so whatever the steps stored is sent. */
async function fuzz({ seed = 0, runs = 100, wrapped = 'both', race = false }, write) {
  const sides = wrapped === 'both' ? [false, true] : [Boolean(wrapped)];
  let index = 0;
  await fc.assert(
    fc.asyncProperty(trials(race), fc.scheduler(), async (drawn, s) => {
      const spec = { ...drawn, steps: [...drawn.steps, ['ask']] };
      for (const side of sides) {
        const done = trial({ ...spec, wrapped: side }, (label) => s.schedule(Promise.resolve(label), label));
        const record = await s.waitFor(done);
        write({ run: index, seed, ...record });
      }
      index += 1;
      return true;
    }),
    { seed, numRuns: runs, endOnFailure: true },
  );
}

/** How often storing one batch of `pairs` calls, each with its output, reads a property of an
 * item: a count that grows with the batch's square is a quadratic scan. */
async function batchReads(pairs, wrapped) {
  let reads = 0;
  const counted = (item) => new Proxy(item, { get: (target, key) => ((reads += 1), Reflect.get(target, key)) });
  const items = [];
  for (let n = 0; n < pairs; n += 1) {
    items.push(counted({ type: 'function_call', id: `fc_${n}`, callId: `call_${n}`, name: TOOL, arguments: '{}', status: 'completed' }));
    items.push(counted({ type: 'function_call_result', callId: `call_${n}`, name: TOOL, status: 'completed', output: { type: 'text', text: 'done' } }));
  }
  const { session, store } = conversation({ wrapped, hook: 'no' }, null, []);
  await session.addItems(items);
  return { items: items.length, stored: store.items.length, property_reads: reads };
}

async function main() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const plan = JSON.parse(text);
  const write = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
  if (plan.fuzz) return fuzz(plan.fuzz, write);
  if (plan.batch) return write(await batchReads(plan.batch.pairs, plan.batch.wrapped));
  for (const spec of plan.trials ?? []) write(await trial(spec));
  return undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

// What the JS workaround costs a turn: wall time and store reads of one plain turn (on a history
// holding 0 or more dead calls: calls the user moved on from, 50 to a model answer) and of one
// resume, on a store of N items, bare and wrapped (the fuzzer's store, model and compaction
// endpoint, the hook saying no, so the store keeps its size), and the time to store one batch of
// many items. It prints one JSON line per measurement; `benchmarks/js_workaround_turn.py` runs
// it and prints the table.
//
//   node js/workaround-turn.mjs < plan.json
//   plan: {"sizes": [...], "dead": [...], "rounds": n, "batch": n}, or
//         {"window": {"sizes": [...], "latencies": [...]}, "rounds": n}: how long a compaction's
//         replacement leaves the store empty (clear, then add), bare and wrapped, with and
//         without a store that replaces in one transaction
import { performance } from 'node:perf_hooks';
import { conversation } from './storefuzz.mjs';

const PARALLEL = 50; // dead calls one model answer made

/** Questions and answers, every tenth exchange a call with its output, from exchange `k` on, until
 * `items` holds `n` items. */
function exchanges(items, n, k = 0) {
  for (; items.length < n; k += 1) {
    items.push({ role: 'user', content: `question ${k}` });
    if (k % 10 === 9) {
      items.push({ type: 'function_call', id: `fc_${k}`, callId: `call_${k}`, name: 'approve_me', arguments: '{}', status: 'completed' });
      items.push({ type: 'function_call_result', callId: `call_${k}`, name: 'approve_me', status: 'completed', output: { type: 'text', text: `done ${k}` } });
    }
    items.push({ type: 'message', id: `msg_${k}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `answer ${k}` }] });
  }
  return k;
}

/** N stored items, `dead` of them calls the user moved on from, in groups of 50 (a question that
 * asked for them, then the calls) spread evenly, each followed by a question; null when there are
 * more dead calls than items. When the groups leave fewer than 8 items for the exchanges around
 * them, the history holds 8 (10,000 dead calls: 10,208 items). */
function stored(n, dead = 0) {
  if (dead > n) return null;
  const groups = Math.ceil(dead / PARALLEL);
  const filler = Math.max(n - dead - groups, 8);
  n = filler + dead + groups;
  const items = [];
  let k = 0;
  for (let g = 0; g < groups; g += 1) {
    k = exchanges(items, Math.round(((g + 1) * filler) / (groups + 1)) + g * PARALLEL + g, k);
    items.push({ role: 'user', content: `pause ${g}` });
    for (let c = 0; c < Math.min(PARALLEL, dead - g * PARALLEL); c += 1) {
      items.push({ type: 'function_call', id: `fc_dead_${g}_${c}`, callId: `dead_${g}_${c}`, name: 'approve_me', arguments: '{}', status: 'completed' });
    }
  }
  exchanges(items, n, k);
  return items;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One turn (or one pause and its resume) on a fresh store of `history`: seconds and items
 * read, the resume's alone. */
async function once(history, wrapped, kind) {
  const { run } = await import('@openai/agents');
  const { store, session, agent } = conversation({ wrapped, hook: 'no', keepInputs: false }, null, history);
  let state = null;
  if (kind === 'resume') {
    const paused = await run(agent, 'pause here', { session });
    state = paused.state;
    for (const item of state.getInterruptions()) state.approve(item);
  }
  const before = { ...store.reads };
  const started = performance.now();
  await run(agent, state ?? 'one more question', { session });
  const seconds = (performance.now() - started) / 1000;
  return { seconds, reads: store.reads.calls - before.calls, itemsRead: store.reads.items - before.items };
}

/** The windows of one compaction's replacement, in milliseconds, on a store of `size` items
 * answering `latency` ms late: `read` from the read of the history it replaces to the clear's
 * commit (another process's write landing there is cleared unseen), `empty` from the clear's
 * commit to the add's (the store holds no history). With `transactions`, the replacement is one
 * transaction, conditional on the history read: neither window exists. */
async function window(size, latency, wrapped, transactions) {
  const { run } = await import('@openai/agents');
  const spec = { wrapped, hook: 'yes', keepInputs: false, handles: { a: latency }, transactions };
  const { store, session, agent } = conversation(spec, null, stored(size));
  await run(agent, 'one more question', { session });
  const ops = store.ledger.map((write) => write.op);
  const clear = ops.indexOf('clear');
  if (clear < 0) return { compacted: ops.includes('transaction'), read: 0, empty: 0 };
  const { committed, readAt } = store.backing;
  const lastRead = Math.max(...readAt.filter((at) => at < committed[clear]));
  return { compacted: true, read: committed[clear] - lastRead, empty: committed[clear + 1] - committed[clear] };
}

/** Storing `count` items in one batch (calls with their outputs among them): seconds. */
async function batch(count, wrapped) {
  const { session } = conversation({ wrapped, hook: 'no' }, null, []);
  const items = stored(count);
  const started = performance.now();
  await session.addItems(items);
  return (performance.now() - started) / 1000;
}

async function main() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const plan = JSON.parse(text);
  const { sizes = [1000, 10000, 100000], dead: deads = [0], rounds = 3, batch: count = 16000 } = plan;
  const write = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
  if (plan.window) {
    for (const size of plan.window.sizes) {
      for (const latency of plan.window.latencies) {
        for (const transactions of [false, true]) {
          for (const wrapped of [false, true]) {
            const runs = [];
            for (let r = 0; r < rounds; r += 1) runs.push(await window(size, latency, wrapped, transactions));
            const compacted = runs.every((x) => x.compacted);
            write({ kind: 'window', size, latency, transactions, wrapped, compacted, read: median(runs.map((x) => x.read)), empty: median(runs.map((x) => x.empty)) });
          }
        }
      }
    }
    return;
  }
  await once(stored(100), true, 'turn'); // warm: the modules' first load
  for (const size of sizes) {
    const cases = [...deads.map((dead) => ['turn', dead]), ['resume', 0]];
    for (const [kind, dead] of cases) {
      const history = stored(size, dead);
      if (history === null) continue;
      const runs = { false: [], true: [] }; // bare and wrapped, interleaved round by round
      const times = rounds * Math.max(1, Math.ceil(10000 / size)); // more rounds for short turns
      for (let r = 0; r < times; r += 1) {
        for (const wrapped of [false, true]) runs[wrapped].push(await once(history, wrapped, kind));
      }
      for (const wrapped of [false, true]) {
        const [first] = runs[wrapped];
        write({ size: history.length, dead, kind, wrapped, seconds: median(runs[wrapped].map((x) => x.seconds)), reads: first.reads, items_read: first.itemsRead });
      }
    }
  }
  const batches = { false: [], true: [] };
  for (let r = 0; r < 3 * rounds; r += 1) {
    for (const wrapped of [false, true]) batches[wrapped].push(await batch(count, wrapped));
  }
  for (const wrapped of [false, true]) write({ size: count, kind: 'batch', wrapped, seconds: median(batches[wrapped]) });
}

await main();

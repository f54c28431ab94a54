// What the JS workaround costs a turn: wall time and store reads of one plain turn and of one
// resume on a store of N items, bare and wrapped (the fuzzer's store, model and compaction
// endpoint, the hook saying no, so the store keeps its size), and the time to store one batch of
// many items. It prints one JSON line per measurement; `benchmarks/js_workaround_turn.py` runs
// it and prints the table.
//
//   node js/workaround-turn.mjs < plan.json     plan: {"sizes": [...], "rounds": n, "batch": n}
import { performance } from 'node:perf_hooks';
import { conversation } from './storefuzz.mjs';

/** N stored items: questions and answers, every tenth exchange a call with its output. */
function stored(n) {
  const items = [];
  for (let k = 0; items.length < n; k += 1) {
    items.push({ role: 'user', content: `question ${k}` });
    if (k % 10 === 9) {
      items.push({ type: 'function_call', id: `fc_${k}`, callId: `call_${k}`, name: 'approve_me', arguments: '{}', status: 'completed' });
      items.push({ type: 'function_call_result', callId: `call_${k}`, name: 'approve_me', status: 'completed', output: { type: 'text', text: `done ${k}` } });
    }
    items.push({ type: 'message', id: `msg_${k}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `answer ${k}` }] });
  }
  return items.slice(0, n);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One turn (or one pause and its resume) on a fresh store of `size` items: seconds and items
 * read, the resume's alone. */
async function once(size, wrapped, kind) {
  const { run } = await import('@openai/agents');
  const { store, session, agent } = conversation({ wrapped, hook: 'no', keepInputs: false }, null, stored(size));
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
  const { sizes = [1000, 10000, 100000], rounds = 3, batch: count = 16000 } = JSON.parse(text);
  const write = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
  await once(100, true, 'turn'); // warm: the modules' first load
  for (const size of sizes) {
    for (const kind of ['turn', 'resume']) {
      const runs = { false: [], true: [] }; // bare and wrapped, interleaved round by round
      const times = rounds * Math.max(1, Math.ceil(10000 / size)); // more rounds for short turns
      for (let r = 0; r < times; r += 1) {
        for (const wrapped of [false, true]) runs[wrapped].push(await once(size, wrapped, kind));
      }
      for (const wrapped of [false, true]) {
        const [first] = runs[wrapped];
        write({ size, kind, wrapped, seconds: median(runs[wrapped].map((x) => x.seconds)), reads: first.reads, items_read: first.itemsRead });
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

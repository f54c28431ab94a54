// The study's scenario on @openai/agents: one case at a time, through the SDK's public API, over
// HTTP to the project's stand-in. It drives and records; it judges nothing. What it writes, one
// JSON line per case, is the study's capture format with the SDK's own items as they were
// (`function_call_result`, `callId`): the Python side maps them to the wire's shapes in one
// place (approval_compaction/js/items.py) and judges them with the Python runs' invariants.
//
// It ships inside the Python package, so the doctor runs it on a team's own install: the Python
// side copies it into a scratch folder whose `node_modules` links to the folder holding the SDK
// (the project's pinned one, a release's, or the team's), and Node resolves every import there.
// That is the team's code running: whatever it (or a preloaded agent) prints on stdout is not
// read. The records go, one JSON line each, to the file the plan names (`results`), which only
// this script writes.
//
//   node driver.mjs < plan.json       the cases of a plan (its fields: see `main`)
//   node driver.mjs --resume          the steps after a process boundary (internal)
//   node driver.mjs --steps           a search's conversations, one step per line (`Stepper`)
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import * as agents from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';

const { Agent, run, tool, hostedMcpTool, MemorySession, RunState, OpenAIResponsesModel } = agents;
const { shellTool, applyPatchTool, computerTool } = agents;
const Compaction = agents.OpenAIResponsesCompactionSession;
const HERE = fileURLToPath(import.meta.url);
const MODEL = 'gpt-4.1'; // an OpenAI model name, as the compaction session requires
const TOOL_NAME = 'protected_lookup';
const QUESTIONS = ['first question', 'next question'];
const CONVERSATION_HEADER = 'x-stand-in-conversation';
const REPLY_HEADER = 'x-stand-in-reply'; // scripts the stand-in's next answer: 'message', a call
// The tool the agent carries (a plan's `tool`), and the stand-in's reply that calls it.
const CALLS = { function: 'call', mcp: 'mcp', shell: 'shell', apply_patch: 'apply_patch', computer: 'computer' };
const EARLIER = (n) => `earlier question ${n}`;
const LATER = (n) => `later question ${n}`;
const BETWEEN = (n) => `question ${n} while the approval waits`;
const MCP_SERVER = 'synthetic-mcp'; // the Python study's hosted MCP server label
// The liveness situations: what each leaves behind before its later turns (the Python study's
// study/words.py SITUATIONS, those the JS SDK can express).
const SITUATIONS = ['abandoned', 'lost', 'clean', 'mcp_abandoned', 'resumed', 'mcp_resumed'];
const HOSTED = ['mcp_abandoned', 'mcp_resumed'];
const LATE = ['resumed', 'mcp_resumed'];
const KEPT_TURNS = 3; // questions asked while a late resume's state is kept (Python: BETWEEN)
// js/workaround.mjs, copied beside the harness by the Python side when a plan asks for it.
let deferCompactionWhilePending = null;

agents.setTracingDisabled?.(true); // no exporter: nothing leaves for the tracing endpoint

// The SDK warns on the console; a conversation keeps its warnings for the record.
let listening = null;
const warn = console.warn;
console.warn = (...args) => (listening ? listening.warnings.push(oneLine(args.map(String).join(' '))) : warn(...args));

/** The installed release of @openai/agents (the package a team installs), as its package.json
 * says: a sibling it pins (agents-core, agents-openai) may be another version where npm
 * resolved one elsewhere. */
async function sdkVersion() {
  const require = createRequire(HERE);
  const dir = dirname(require.resolve('@openai/agents'));
  for (let at = dir; at !== dirname(at); at = dirname(at)) {
    try {
      const meta = JSON.parse(await readFile(join(at, 'package.json'), 'utf8'));
      if (meta.name === '@openai/agents') return meta.version;
    } catch {
      // not the package's own folder yet
    }
  }
  return 'unknown';
}

/** Whether this release has the compaction session, and whether it reads `compactionMode`. */
function capabilities() {
  const source = Compaction ? Compaction.toString() : '';
  return { session: Boolean(Compaction), modes: source.includes('compactionMode') };
}

/** A session whose items live in a JSON file, so a second process can read them back. */
class FileSession {
  constructor(path, id = 'case-session') {
    this.path = path;
    this.id = id;
  }
  async read() {
    try {
      return JSON.parse(await readFile(this.path, 'utf8'));
    } catch (error) {
      if (error.code === 'ENOENT') return [];
      throw error;
    }
  }
  async write(items) {
    await writeFile(this.path, JSON.stringify(items));
  }
  async getSessionId() {
    return this.id;
  }
  async getItems(limit) {
    const items = await this.read();
    return limit === undefined ? items : items.slice(Math.max(0, items.length - limit));
  }
  async addItems(items) {
    await this.write([...(await this.read()), ...items]);
  }
  async popItem() {
    const items = await this.read();
    const last = items.pop();
    await this.write(items);
    return last;
  }
  async clearSession() {
    await this.write([]);
  }
}

/** What one conversation sent and met: requests in order, tool runs, console warnings. */
class Recorder {
  constructor() {
    this.modelInputs = [];
    this.http = [];
    this.dispatches = 0;
    this.warnings = [];
    this.hook = []; // the candidate count of each compaction decision the session asked for
    this.always = false; // a later turn: the compaction decision says yes
    this.reply = '';
    this.replies = []; // a searched step's scripted replies, one per model request, then `reply`
    this.marks = this.counts();
    listening = this;
  }
  counts() {
    return [this.modelInputs.length, this.http.length, this.dispatches, this.warnings.length, this.hook.length];
  }
  /** The requests and runs since the previous stage ended. */
  since() {
    const [m, h, d, w, k] = this.marks;
    this.marks = this.counts();
    const http = this.http.slice(h);
    return {
      model_inputs: this.modelInputs.slice(m),
      compaction_inputs: http
        .filter((r) => r.path.endsWith('/responses/compact'))
        .map((r) => asList(r.body?.input)),
      dispatches: this.dispatches - d,
      warnings: this.warnings.slice(w),
      http_requests: http,
      hook: this.hook.slice(k),
    };
  }
}

function asList(input) {
  if (input === undefined || input === null) return [];
  return typeof input === 'string' ? [{ role: 'user', content: input }] : input;
}

/** The real `openai` client on the stand-in; a fetch that keeps each request and its status. */
function client(plan, conversation, recorder) {
  const logged = async (url, init) => {
    const headers = new Headers(init?.headers);
    const toModel = new URL(String(url)).pathname.endsWith('/responses');
    const reply = toModel && recorder.replies.length > 0 ? recorder.replies.shift() : recorder.reply;
    if (reply) headers.set(REPLY_HEADER, reply);
    const response = await fetch(url, { ...init, headers });
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
    const seen = { path: new URL(String(url)).pathname, status: response.status, body };
    if (response.status >= 400) {
      const said = await response.clone().json().catch(() => ({}));
      seen.error = said?.error?.message ?? '';
    }
    recorder.http.push(seen);
    return response;
  };
  return new OpenAI({
    baseURL: plan.base_url,
    apiKey: 'stand-in',
    maxRetries: 0,
    fetch: logged,
    defaultHeaders: { [CONVERSATION_HEADER]: conversation },
  });
}

/** The SDK's Responses model, keeping what the runner hands it before it converts it. */
function recordingModel(openai, recorder) {
  const model = new OpenAIResponsesModel(openai, MODEL);
  const keep = (request) => recorder.modelInputs.push(asList(structuredClone(request.input)));
  const getResponse = model.getResponse.bind(model);
  const getStreamedResponse = model.getStreamedResponse.bind(model);
  model.getResponse = async (request) => {
    keep(request);
    return getResponse(request);
  };
  model.getStreamedResponse = (request) => {
    keep(request);
    return getStreamedResponse(request);
  };
  return model;
}

/** The tools that pause for approval, one per kind: each runs nothing outside the process and
 * counts its runs. */
function approvalTool(kind, recorder) {
  const ran = (value) => {
    recorder.dispatches += 1;
    return value;
  };
  if (kind === 'shell') {
    const shell = { run: async (action) => ran({ output: action.commands.map((c) => ({ stdout: `ran ${c}`, stderr: '', outcome: { type: 'exit', exitCode: 0 } })) }) };
    return shellTool({ shell, needsApproval: true });
  }
  if (kind === 'apply_patch') {
    const done = async (operation) => ran({ status: 'completed', output: `${operation.type} ${operation.path}` });
    return applyPatchTool({ editor: { createFile: done, updateFile: done, deleteFile: done }, needsApproval: true });
  }
  if (kind === 'computer') {
    const nothing = async () => {};
    const computer = {
      environment: 'ubuntu', dimensions: [1024, 768],
      screenshot: async () => ran('c3RhbmQtaW4='), // a screenshot's base64 (the text "stand-in")
      click: nothing, doubleClick: nothing, scroll: nothing, type: nothing, wait: nothing,
      move: nothing, keypress: nothing, drag: nothing,
    };
    return computerTool({ computer, needsApproval: true });
  }
  return tool({
    name: TOOL_NAME,
    description: 'Look a value up; a human approves each call.',
    parameters: z.object({ value: z.string() }),
    needsApproval: true,
    execute: async ({ value }) => ran(`looked up ${value}`),
  });
}

function buildAgent(openai, recorder, plan, kind = 'function') {
  const settings = plan.response_store === null ? {} : { store: plan.response_store };
  const common = {
    name: 'assistant',
    instructions: 'Answer; look values up with the tool.',
    model: recordingModel(openai, recorder),
    modelSettings: settings,
  };
  if (plan.tools === false) return new Agent({ ...common, instructions: 'Answer.' }); // a plain agent
  if (plan.search) return new Agent({ ...common, tools: searchTools(recorder) });
  if (kind === 'mcp') {
    const server = hostedMcpTool({
      serverLabel: MCP_SERVER,
      serverUrl: 'https://mcp.invalid/',
      requireApproval: 'always',
    });
    return new Agent({ ...common, tools: [server] });
  }
  return new Agent({ ...common, tools: [approvalTool(kind, recorder)] });
}

function trigger(plan, kase) {
  if (plan.trigger === 'default') return undefined; // the SDK's own
  if (typeof plan.trigger === 'number') {
    const threshold = plan.trigger; // compact at this many candidate items, as the SDK's default does at 10
    return ({ compactionCandidateItems }) => compactionCandidateItems.length >= threshold;
  }
  const yes = kase.compaction === 'on';
  return () => yes;
}

function buildSession(plan, kase, openai, underlying, recorder) {
  const options = {
    client: openai,
    model: MODEL,
    underlyingSession: underlying,
  };
  if (plan.modeOption !== false) options.compactionMode = plan.mode;
  const decide = trigger(plan, kase);
  if (decide) options.shouldTriggerCompaction = decide;
  const session = new Compaction(options);
  // The session asks `this.shouldTriggerCompaction` (the option, or the SDK's own default) on
  // every release with the session: each decision's candidate count is kept for the record, and
  // a later turn's decision says yes.
  const own = session.shouldTriggerCompaction;
  if (typeof own === 'function') {
    session.shouldTriggerCompaction = async (args) => {
      recorder.hook.push(args?.compactionCandidateItems?.length ?? 0);
      return recorder.always ? true : own.call(session, args);
    };
  }
  return plan.workaround ? deferCompactionWhilePending(session) : session;
}

/** A searched conversation's tools, by the kind of call the model makes to each: the approved
 * one (the study's), a plain one, and a hosted MCP server that asks for every approval. Only
 * the approved one counts its runs (the dispatches its approvals must match). */
function searchTools(recorder) {
  const approved = tool({
    name: TOOL_NAME,
    description: 'Look a value up; a human approves each call.',
    parameters: z.object({ value: z.string() }),
    needsApproval: true,
    execute: async ({ value }) => {
      recorder.dispatches += 1;
      return `looked up ${value}`;
    },
  });
  const plain = tool({
    name: 'lookup',
    description: 'Look a public value up.',
    parameters: z.object({ value: z.string() }),
    execute: async ({ value }) => `found ${value}`,
  });
  const server = hostedMcpTool({ serverLabel: MCP_SERVER, serverUrl: 'https://mcp.invalid/', requireApproval: 'always' });
  return [approved, plain, server];
}

/** Everything a refused or failed turn tells the user, in the capture format's words. */
function outcomeOf(error, recorder) {
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const refused = [...recorder.http].reverse().find((r) => r.status >= 400);
    return {
      outcome: `openai.${error.constructor.name}: ${oneLine(error.message)}`,
      http_status: error.status,
      endpoint: refused?.path ?? '',
      api_message: oneLine(error.error?.message ?? ''),
    };
  }
  return { error: `${error?.constructor?.name ?? 'Error'}: ${oneLine(String(error?.message ?? error))}` };
}

function oneLine(text) {
  return String(text).split(/\s+/).filter(Boolean).join(' ');
}

/** The item lists a serialised RunState carries, under the Python state's names. */
function stateItems(text) {
  const data = JSON.parse(text);
  const found = {};
  if (data.originalInput !== undefined) found.original_input = asList(data.originalInput);
  if (Array.isArray(data.generatedItems)) {
    found.generated_items = data.generatedItems.map((e) => ({ type: e.type, raw_item: e.rawItem }));
  }
  if (Array.isArray(data.modelResponses)) {
    found.model_responses = data.modelResponses.flatMap((r) => r.output ?? []);
  }
  return found;
}

/** One conversation: its session, agent and recorder, and the stages it has recorded. */
class Conversation {
  constructor(plan, kase, label, underlying, kind = plan.tool ?? 'function') {
    this.plan = plan;
    this.kase = kase;
    this.kind = kind;
    this.recorder = new Recorder();
    this.openai = client(plan, label, this.recorder);
    this.agent = buildAgent(this.openai, this.recorder, plan, kind);
    this.session = buildSession(plan, kase, this.openai, underlying, this.recorder);
    this.stages = [];
    this.later = []; // the case continued: each later turn's stage and what the user met
    this.laterError = '';
    this.state = null;
    this.approvals = 0;
    this.error = null;
  }

  async stage(name, seen = {}, extra = {}) {
    const stored = await this.session.getItems();
    this.stages.push({ name, stored, ...this.recorder.since(), ...extra, outcome: 'ok', http_status: null, ...seen });
  }

  /** One run; a refusal is recorded on the stage, anything else stops the case. */
  async turn(name, input) {
    try {
      let result;
      if (this.kase.runner === 'run') {
        result = await run(this.agent, input, { session: this.session });
      } else {
        result = await run(this.agent, input, { session: this.session, stream: true });
        for await (const _event of result) {
          // consumed fully, as the Python study consumes run_streamed's events
        }
        await result.completed;
      }
      const interruptions = (result.interruptions ?? []).map((i) => i.rawItem);
      this.state = interruptions.length > 0 ? result.state : null;
      await this.stage(name, {}, name === 'pause' ? { interruptions } : {});
      this.met = interruptions.length > 0 ? 'paused' : 'answered';
      return true;
    } catch (error) {
      this.state = null;
      const seen = outcomeOf(error, this.recorder);
      if (seen.error) {
        this.error = seen.error;
        return false;
      }
      await this.stage(name, seen);
      this.met = 'raised';
      return true;
    }
  }

  async cross(boundary) {
    if (boundary !== 'json') {
      await this.stage('round_trip');
      return;
    }
    const text = this.state.toString();
    this.state = await RunState.fromString(this.agent, text);
    await this.stage('round_trip', {}, { state_items: stateItems(text) });
  }

  decide() {
    const approve = this.kase.decision === 'approve';
    for (const item of this.state.getInterruptions()) {
      if (approve) this.state.approve(item);
      else this.state.reject(item);
      this.approvals += approve ? 1 : 0;
    }
  }

  /** Decide, resume and ask the next question (the steps after the boundary). */
  async finish() {
    if (this.state) {
      this.decide();
      if (!(await this.turn('resume', this.state))) return;
    }
    await this.turn('next_turn', QUESTIONS[1]);
  }

  /** `count` plain questions after the case, each answered with a message and the compaction
   * decision saying yes (the Python study's later turns): their stages go to `later`. */
  async continueFor(count) {
    this.recorder.reply = 'message';
    this.recorder.always = true;
    for (let n = 0; n < count; n += 1) {
      if (!(await this.turn('next_turn', LATER(n + 1)))) {
        this.laterError = this.error;
        this.error = null;
        break;
      }
      this.later.push({ stage: this.stages.pop(), outcome: this.met === 'paused' ? 'paused' : 'answered' });
    }
  }

  record(version) {
    return {
      case: this.kase,
      sdk: 'js',
      sdk_version: version,
      stages: this.stages,
      approvals: this.approvals,
      dispatches: this.recorder.dispatches,
      error: this.error,
      model: 'responses',
      mode: this.plan.mode,
      response_store: this.plan.response_store,
      continued: this.plan.later ?? 0,
      later: this.later,
      later_error: this.laterError,
    };
  }
}

/** Plain question-and-answer turns stored before the pause (the stand-in told to answer each
 * with a message); what they sent is not any stage's. */
async function earlierTurns(talk, count) {
  talk.recorder.reply = 'message';
  try {
    for (let n = 0; n < count; n += 1) {
      await run(talk.agent, EARLIER(n), { session: talk.session });
    }
  } finally {
    talk.recorder.reply = '';
  }
  talk.recorder.since();
}

async function runCase(plan, kase, index, version, earlier = 0) {
  const { talk, elsewhere } = await caseTurns(plan, kase, index, version, earlier);
  if (elsewhere) return elsewhere;
  if (plan.later && !talk.error) await talk.continueFor(plan.later);
  else if (plan.later) talk.laterError = talk.error; // the case stopped: no later turn ran
  return talk.record(version);
}

/** The case's own turns (`talk`), or the record of a second process that finished it
 * (`elsewhere`). */
async function caseTurns(plan, kase, index, version, earlier) {
  const label = `${plan.label ?? 'case'}-${index}`;
  const file = plan.session === 'file' ? join(plan.scratch, `${label}.json`) : null;
  const underlying = file ? new FileSession(file) : new MemorySession();
  if (plan.history?.length) await underlying.addItems(structuredClone(plan.history));
  const talk = new Conversation(plan, kase, label, underlying);
  try {
    await earlierTurns(talk, earlier);
  } catch (error) {
    talk.error = outcomeOf(error, talk.recorder).error ?? `earlier turns: ${oneLine(error.message)}`;
    return { talk };
  }
  talk.recorder.reply = CALLS[talk.kind]; // the question that pauses calls the tool, after any history
  const asked = await talk.turn('pause', QUESTIONS[0]);
  talk.recorder.reply = '';
  if (!asked) return { talk };
  if (talk.state === null && talk.stages.at(-1).outcome === 'ok') {
    talk.error = 'RuntimeError: the first turn did not pause for approval';
    return { talk };
  }
  if (talk.state === null || plan.abandon) {
    // The pause raised, or nobody decides: nothing is resumed; the user asks again (an
    // abandoned call is answered with a message, not another call).
    talk.recorder.reply = talk.state === null ? '' : 'message';
    talk.state = null;
    await talk.turn('next_turn', QUESTIONS[1]);
    talk.recorder.reply = '';
    return { talk };
  }
  if (file && kase.state_boundary === 'json' && plan.process) {
    return { talk, elsewhere: await inAnotherProcess(plan, talk, label, file, version) };
  }
  await talk.cross(kase.state_boundary);
  await talk.finish();
  return { talk };
}

/** One liveness situation on the plan's session and runner, then `plan.later` plain questions,
 * each answered with a message, the trigger the plan's: the stages of the situation's own turns
 * (`own` of them: the pause; a late resume's kept turns and resume), then one `next_turn`
 * stage per later turn, with what the user met (`answered`, `paused` or `raised`). */
async function runSituation(plan, name, index, version) {
  const label = `${plan.label ?? 'situation'}-${name}-${index}`;
  const kind = HOSTED.includes(name) ? 'mcp' : plan.tool ?? 'function';
  const kase = { runner: plan.runner ?? 'run', decision: 'approve', compaction: 'on', state_boundary: 'memory' };
  const underlying = new MemorySession();
  const talk = new Conversation(plan, kase, label, underlying, kind);
  const base = { scenario: name, sdk: 'js', sdk_version: version, mode: plan.mode, response_store: plan.response_store, workaround: Boolean(plan.workaround), resumed: false, later: plan.later };
  const done = (extra = {}) => ({ ...base, stages: talk.stages, met: talk.metList ?? [], own: talk.own ?? talk.stages.length, error: talk.error, ...extra });
  if (name !== 'clean') {
    talk.recorder.reply = CALLS[kind];
    const asked = await talk.turn('pause', QUESTIONS[0]);
    talk.recorder.reply = '';
    if (!asked) return done();
    const refused = talk.met === 'raised'; // the pause raised: nothing to keep, lose or resume
    if (talk.state === null && !refused) return done({ error: 'RuntimeError: the question did not pause for approval' });
    if (name === 'lost' && !refused) {
      // The worker holding the paused state dies: a new one builds its agent and session over
      // the same store, and the state is gone with the old one.
      talk.state = null;
      talk.agent = buildAgent(talk.openai, talk.recorder, plan, kind);
      talk.session = buildSession(plan, kase, talk.openai, underlying, talk.recorder);
    }
    if (LATE.includes(name) && !refused) {
      const text = talk.state.toString(); // the application keeps the paused state aside
      talk.recorder.reply = 'message';
      for (let n = 0; n < KEPT_TURNS; n += 1) {
        if (!(await talk.turn('next_turn', BETWEEN(n + 1)))) return done();
      }
      talk.recorder.reply = '';
      talk.state = await RunState.fromString(talk.agent, text);
      talk.decide();
      if (!(await talk.turn('resume', talk.state))) return done();
      base.resumed = true; // the last of its own stages is the late resume
    }
  }
  talk.own = talk.stages.length;
  talk.metList = [];
  talk.recorder.reply = 'message';
  for (let n = 0; n < plan.later; n += 1) {
    if (!(await talk.turn('next_turn', LATER(n + 1)))) break;
    talk.metList.push(talk.met);
  }
  return done();
}

/** The state's text and the session file cross to a second Node process, which restores the
 * state, decides, resumes and asks the next question; its stages join this one's. */
async function inAnotherProcess(plan, talk, label, file, version) {
  const text = talk.state.toString();
  await talk.stage('round_trip', {}, { state_items: stateItems(text) });
  const written = `${file}.resumed.json`; // the child's record: its stdout is not read
  const payload = JSON.stringify({ plan, kase: talk.kase, label, file, text, version, written });
  const child = spawn(process.execPath, [HERE, '--resume'], { stdio: ['pipe', 'ignore', 'inherit'] });
  child.stdin.end(payload);
  const code = await new Promise((done) => child.on('close', done));
  if (code !== 0) {
    talk.error = `RuntimeError: the resuming process exited with ${code}`;
    return talk.record(version);
  }
  const rest = JSON.parse(await readFile(written, 'utf8'));
  return { ...rest, stages: [...talk.stages, ...rest.stages] };
}

/** js/workaround.mjs, when the plan wraps the session with it (copied beside the harness). */
async function loadWorkaround(plan) {
  if (plan.workaround) ({ deferCompactionWhilePending } = await import('./workaround.mjs'));
}

async function resume() {
  const { plan, kase, label, file, text, version, written } = JSON.parse(await readStdin());
  await loadWorkaround(plan);
  const talk = new Conversation(plan, kase, label, new FileSession(file));
  talk.state = await RunState.fromString(talk.agent, text);
  await talk.finish();
  await writeFile(written, JSON.stringify(talk.record(version)));
}

async function readStdin() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

// ---------------------------------------------------------------- the search's steps

/** How a searched step's kinds are called: the tool's name, or `mcp` (the stand-in's words). */
const SEARCH_CALLS = { function_approval: TOOL_NAME, function: 'lookup', mcp_approval: 'mcp' };
const CONTINUE_TURNS = 3; // the plain questions of one `continue` step (the Python search's)

/** A searched conversation taken one step at a time: its `Conversation` (the agent with the
 * search's tools, the session on the settings' store), the paused state and the one kept. */
class Stepper {
  constructor(settings, scratch) {
    const plan = { ...settings, search: true, workaround: Boolean(settings.fix), response_store: null, trigger: 'case' };
    this.plan = plan;
    this.file = settings.store === 'file' ? join(scratch, `${settings.label}.json`) : null;
    this.underlying = this.file ? new FileSession(this.file) : new MemorySession();
    this.kase = { runner: 'run', decision: 'approve', compaction: 'off', state_boundary: 'memory' };
    this.talk = new Conversation(plan, this.kase, settings.label, this.underlying);
    this.kept = null;
  }

  /** One step; its stages, what the user met, the approvals and what is left waiting. */
  async take(index, step) {
    const talk = this.talk;
    this.kase.runner = step.runner ?? 'run';
    talk.recorder.always = Boolean(step.compact) || step.action === 'continue';
    talk.recorder.reply = 'message';
    talk.stages = [];
    talk.error = null;
    let outcome = 'answered';
    let approvals = 0;
    if (step.action === 'ask') {
      const calls = (step.calls ?? []).map((kind, n) => `${SEARCH_CALLS[kind]}@${kind}-${index}-${n}`);
      talk.recorder.replies = calls.length ? [`calls:${calls.join(',')}`] : [];
      await this.turn('next_turn', `question ${index}`);
      outcome = talk.met;
    } else if (step.action === 'decide') {
      if (step.kept ? this.kept === null : talk.state === null) return { not_applicable: 'nothing to decide' };
      if (step.kept) {
        talk.state = await RunState.fromString(talk.agent, this.kept);
        this.kept = null;
      }
      if (step.boundary === 'process') {
        if (!this.file) return { not_applicable: 'a second process cannot read a memory session' };
        approvals = await this.elsewhere(step);
      } else {
        if (step.boundary === 'json') talk.state = await RunState.fromString(talk.agent, talk.state.toString());
        approvals = decideAll(talk.state, step.decision ?? 'approve');
        await this.turn('resume', talk.state);
      }
      outcome = talk.met;
    } else if (step.action === 'lose' || step.action === 'keep') {
      if (talk.state === null) return { not_applicable: 'no paused run' };
      if (step.action === 'keep') this.kept = talk.state.toString();
      talk.state = null; // the run in memory let go
      await talk.stage('next_turn');
      outcome = step.action === 'keep' ? 'kept' : 'lost';
    } else {
      for (let n = 1; n <= CONTINUE_TURNS; n += 1) await this.turn('next_turn', LATER(`${index}.${n}`));
      outcome = talk.met;
    }
    talk.recorder.replies = [];
    const pending = talk.state ? talk.state.getInterruptions().map((i) => i.rawItem.callId ?? i.rawItem.id ?? '?') : [];
    return { stages: talk.stages, outcome, approvals, pending, kept: this.kept !== null };
  }

  /** A turn; an error the SDK raises (not the API's refusal) is recorded on its stage too. */
  async turn(name, input) {
    const talk = this.talk;
    if (await talk.turn(name, input)) return;
    await talk.stage(name, { outcome: `@openai/agents.${talk.error}` });
    talk.met = 'raised';
    talk.error = null;
  }

  /** The decision and the resume in a second Node process over the session's file. */
  async elsewhere(step) {
    const talk = this.talk;
    const payload = JSON.stringify({ plan: this.plan, kase: this.kase, label: this.plan.label, file: this.file, text: talk.state.toString(), step });
    const child = spawn(process.execPath, [HERE, '--resume-step'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(payload);
    let out = '';
    for await (const chunk of child.stdout) out += chunk;
    const code = await new Promise((done) => child.on('close', done));
    if (code !== 0) throw new Error(`the resuming process exited with ${code}`);
    const done = JSON.parse(out);
    talk.stages.push(...done.stages);
    talk.state = done.text ? await RunState.fromString(talk.agent, done.text) : null;
    talk.met = done.met;
    talk.recorder.marks = talk.recorder.counts(); // what the child sent is in its stages
    return done.approvals;
  }
}

/** Approve or reject every interruption (`mixed`: the first approved, the rest rejected); the
 * approvals of the tools this process runs (an MCP server's run on the API's side). */
function decideAll(state, decision) {
  let approvals = 0;
  state.getInterruptions().forEach((item, n) => {
    const approve = decision === 'approve' || (decision === 'mixed' && n === 0);
    if (approve) state.approve(item);
    else state.reject(item);
    if (approve && item.rawItem?.type === 'function_call') approvals += 1;
  });
  return approvals;
}

/** In the second process: restore the state over the file session, decide and resume. */
async function resumeStep() {
  const { plan, kase, label, file, text, step } = JSON.parse(await readStdin());
  await loadWorkaround(plan);
  const stepper = new Stepper({ ...plan, label, store: 'file' }, dirname(file));
  stepper.kase.runner = kase.runner;
  const talk = stepper.talk;
  talk.recorder.always = Boolean(step.compact);
  talk.recorder.reply = 'message';
  talk.state = await RunState.fromString(talk.agent, text);
  const approvals = decideAll(talk.state, step.decision ?? 'approve');
  await stepper.turn('resume', talk.state);
  const done = { stages: talk.stages, met: talk.met, approvals, text: talk.state ? talk.state.toString() : null };
  process.stdout.write(JSON.stringify(done));
}

/** The search's conversations, one request a line on stdin (`start` with the settings, `step`,
 * `stop`), one answer a line on stdout. */
async function steps() {
  let stepper = null;
  let buffer = '';
  const version = await sdkVersion();
  const answer = async (request) => {
    if (request.op === 'version') return { sdk_version: version };
    if (request.op === 'start') {
      const can = capabilities();
      if (!can.session) return { not_applicable: `@openai/agents ${version} has no OpenAIResponsesCompactionSession` };
      if (!can.modes && request.settings.mode !== 'auto') return { not_applicable: `@openai/agents ${version} has no compactionMode option` };
      await loadWorkaround({ workaround: Boolean(request.settings.fix) });
      stepper = new Stepper(request.settings, request.scratch);
      return { sdk_version: version };
    }
    if (request.op === 'step') return stepper.take(request.index, request.step);
    stepper = null;
    return {};
  };
  for await (const chunk of process.stdin) {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (!line.trim()) continue;
      let said;
      try {
        said = await answer(JSON.parse(line));
      } catch (error) {
        said = { error: `${error?.constructor?.name ?? 'Error'}: ${oneLine(String(error?.message ?? error))}` };
      }
      process.stdout.write(`${JSON.stringify(said)}\n`);
    }
  }
}

/** A plan: base_url, results (the file each record is appended to, one JSON line), mode,
 * response_store (null: unset), trigger ("case": the case's on/off, "default": the SDK's own,
 * or a number: compact at that many candidate items), session ("memory" or "file"), process (a
 * json boundary is a second Node process), positions (each case once per number of plain turns
 * before its pause), workaround (the session wrapped by js/workaround.mjs), scratch (a folder
 * for session files), label, the cases, tool (the kind of tool that pauses: function, mcp,
 * shell, apply_patch or computer), abandon (nobody decides: the pause, then the next
 * question), history (items the session holds before each case: a stored session, as the SDK
 * stores it), and later (the plain questions after each case, the decision saying yes: its
 * `later` turns); or, for liveness, situations (their names: each runs instead of the cases),
 * later (the plain questions after each), runner ("run" or "run_streamed") and tools (false:
 * the agent has none). */
async function main() {
  if (process.argv.includes('--resume')) return resume();
  if (process.argv.includes('--resume-step')) return resumeStep();
  if (process.argv.includes('--steps')) return steps();
  const plan = JSON.parse(await readStdin());
  const write = (record) => appendFile(plan.results, `${JSON.stringify(record)}\n`);
  await loadWorkaround(plan);
  const version = await sdkVersion();
  const can = capabilities();
  if (plan.situations?.length) {
    const unknown = plan.situations.filter((name) => !SITUATIONS.includes(name));
    if (unknown.length) throw new Error(`unknown situations: ${unknown.join(', ')}`);
    for (const [index, name] of plan.situations.entries()) {
      const missing = !can.session ? 'no OpenAIResponsesCompactionSession' : !can.modes && plan.mode !== 'auto' ? 'no compactionMode option' : null;
      const record = missing
        ? { scenario: name, sdk: 'js', sdk_version: version, mode: plan.mode, response_store: plan.response_store, workaround: Boolean(plan.workaround), resumed: LATE.includes(name), later: plan.later, stages: [], met: [], own: 0, error: `@openai/agents ${version} has ${missing}` }
        : await runSituation(plan, name, index, version);
      await write(record);
    }
    return;
  }
  const positions = plan.positions ?? [0];
  const runs = plan.cases.flatMap((kase) => positions.map((earlier) => [kase, earlier]));
  const fit = fitted(plan, can, version);
  for (const [index, [kase, earlier]] of runs.entries()) {
    let record;
    if (fit.missing) {
      record = { case: kase, sdk: 'js', sdk_version: version, stages: [], approvals: 0, dispatches: 0, error: null, not_applicable: `@openai/agents ${version} has ${fit.missing}`, model: 'responses', mode: plan.mode, response_store: plan.response_store };
    } else {
      record = await runCase(fit.plan, kase, index, version, earlier);
      if (fit.configured) record.configured = fit.configured;
    }
    await write(record);
  }
}

/** The plan as the release runs its cases, or what it lacks to run them at all. A release
 * without the compaction session runs none; one without the `compactionMode` option (before
 * 0.4.1) always compacts by `previous_response_id`, so a `previous_response_id` plan runs there
 * with the option left out (`configured` says so: the nearest configuration it accepts), and an
 * `input` plan has no equivalent. `auto` is the release's default either way. */
function fitted(plan, can, version) {
  if (!can.session) return { missing: 'no OpenAIResponsesCompactionSession' };
  if (can.modes || plan.mode === 'auto') return { plan };
  if (plan.mode === 'previous_response_id') {
    const configured = `compactionMode left out: @openai/agents ${version} has no compactionMode option and compacts by previous_response_id only`;
    return { plan: { ...plan, modeOption: false }, configured };
  }
  return { missing: 'no compactionMode option' };
}

await main();

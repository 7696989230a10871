import { renderTemplate } from '../domain/template.ts';
import { evaluateCondition, lookupFlowKey } from './condition.ts';
import { FLOW_INPUT_TIMEOUT_SEC, FLOW_INVALID_OPTION_MESSAGE, FLOW_MAX_STEPS_PER_EVENT, FLOW_MENU_MAX_INVALID } from './constants.ts';
import { edgeHandle, FLOW_HANDLES, type FlowGraph } from './graph.ts';
import { contentElementType, type FlowNode, type FlowNodeOf } from './nodes.ts';
import type { FlowAction, FlowContext, FlowEndReason, FlowEvent, FlowState, FlowStepResult, FlowTimer } from './state.ts';
import { foldFlowText } from './text.ts';

// The one flow engine (DESIGN §13): step(flow, state, event, ctx) → { state, actions }. Pure: no
// I/O, no clock, no Math.random — time, randomness, contact fields and which adapters exist come in
// `ctx`, and everything to be done comes out as plain actions the caller performs (the server
// through its outbox and timer rows, the editor's test panel on screen). Runs follow the drawn
// edges only, never the order of the node list. README.md documents every node and event.

type Index = { nodes: Map<string, FlowNode>; next: Map<string, string>; startId: string | null };
const indexes = new WeakMap<FlowGraph, Index>();

/** Nodes by id and edge targets by (node, output), built once per parsed graph. */
function indexOf(flow: FlowGraph): Index {
  let index = indexes.get(flow);
  if (!index) {
    const next = new Map<string, string>();
    // A valid graph has one edge per output; were there two, the first drawn wins, consistently.
    for (const e of flow.edges) if (!next.has(`${e.source}\u0000${edgeHandle(e)}`)) next.set(`${e.source}\u0000${edgeHandle(e)}`, e.target);
    index = { nodes: new Map(flow.nodes.map((n) => [n.id, n])), next, startId: flow.nodes.find((n) => n.type === 'start')?.id ?? null };
    indexes.set(flow, index);
  }
  return index;
}

class Run {
  readonly actions: FlowAction[] = [];
  readonly index: Index;
  state: FlowState;
  steps = 0;

  constructor(flow: FlowGraph, state: FlowState, readonly ctx: FlowContext) {
    this.index = indexOf(flow);
    this.state = { ...state, variables: { ...state.variables } };
  }

  render(text: string): string {
    return renderTemplate(text, { ...this.ctx.vars, ...this.state.variables });
  }

  target(nodeId: string, handle: string): string | null {
    return this.index.next.get(`${nodeId}\u0000${handle}`) ?? null;
  }

  setTimer(nodeId: string, seconds: number, purpose: FlowTimer['purpose'], index?: number): void {
    this.cancelTimer();
    const seq = this.state.timerSeq + 1;
    const timer: FlowTimer = { id: `${nodeId}#${seq}`, nodeId, at: new Date(this.ctx.now.getTime() + seconds * 1000).toISOString(), purpose, ...(index === undefined ? {} : { index }) };
    this.state = { ...this.state, timer, timerSeq: seq };
    this.actions.push({ type: 'setTimer', nodeId, id: timer.id, at: timer.at });
  }

  cancelTimer(): void {
    if (!this.state.timer) return;
    this.actions.push({ type: 'cancelTimer', id: this.state.timer.id });
    this.state = { ...this.state, timer: null };
  }

  finish(reason: FlowEndReason): null {
    this.cancelTimer();
    this.state = { ...this.state, awaiting: null, finished: true };
    this.actions.push({ type: 'end', reason });
    return null;
  }

  /** Where `handle` of `nodeId` leads; an output drawn to nowhere ends the flow there. */
  follow(nodeId: string, handle: string): string | null {
    return this.target(nodeId, handle) ?? this.finish('completed');
  }

  /** Runs nodes from `nodeId` until one waits or the flow ends; a loop is cut at the step cap. */
  runFrom(nodeId: string | null): void {
    let current = nodeId;
    while (current !== null) {
      if (++this.steps > (this.ctx.maxSteps ?? FLOW_MAX_STEPS_PER_EVENT)) return this.loop(current);
      const node = this.index.nodes.get(current);
      if (!node) {
        this.actions.push({ type: 'error', code: 'missing_node', nodeId: current, message: `Node "${current}" does not exist in this flow` });
        this.finish('error');
        return;
      }
      this.state = { ...this.state, nodeId: node.id };
      current = this.execute(node);
    }
  }

  /**
   * An event that runs more nodes than the cap sends nothing: the flow has a cycle without a node
   * that waits, and its messages would repeat until the cap. Cancelling the timer that was pending
   * before the event still matters; the rest is dropped.
   */
  loop(nodeId: string): void {
    const set = new Set(this.actions.flatMap((a) => (a.type === 'setTimer' ? [a.id] : [])));
    const kept = this.actions.filter((a) => a.type === 'cancelTimer' && !set.has(a.id));
    this.actions.length = 0;
    this.actions.push(...kept, { type: 'error', code: 'loop', nodeId, message: `More than ${this.ctx.maxSteps ?? FLOW_MAX_STEPS_PER_EVENT} steps in one event: the flow loops without a node that waits (menu, question, interval)` });
    this.state = { ...this.state, timer: null };
    this.finish('error');
  }

  /** Runs one node; returns the next node to run, or null when the flow waits or ended. */
  execute(node: FlowNode): string | null {
    const { next } = FLOW_HANDLES;
    switch (node.type) {
      case 'start':
        return this.follow(node.id, next);
      case 'message':
        this.actions.push({ type: 'sendText', nodeId: node.id, text: this.render(node.data.label) });
        return this.follow(node.id, next);
      case 'interval':
        this.setTimer(node.id, node.data.sec, 'interval');
        return null;
      case 'condition': {
        const actual = lookupFlowKey(node.data.key, this.state.variables, this.ctx.vars ?? {});
        const ok = evaluateCondition(actual, node.data.condition, this.render(node.data.value));
        return this.follow(node.id, ok ? FLOW_HANDLES.conditionTrue : FLOW_HANDLES.conditionFalse);
      }
      case 'menu':
        this.actions.push({ type: 'sendText', nodeId: node.id, text: this.menuText(node) });
        return this.await(node.id, 'menu', node.data.timeoutSec);
      case 'img':
      case 'video':
        this.actions.push({ type: 'sendMedia', nodeId: node.id, mediaType: node.type === 'img' ? 'image' : 'video', url: node.data.url, ...(node.data.caption ? { caption: this.render(node.data.caption) } : {}) });
        return this.follow(node.id, next);
      case 'audio':
        this.actions.push({ type: 'sendMedia', nodeId: node.id, mediaType: 'audio', url: node.data.url, record: node.data.record });
        return this.follow(node.id, next);
      case 'singleBlock':
        return this.content(node, 0);
      case 'randomizer': {
        const branch = this.ctx.random() * 100 < node.data.percent ? FLOW_HANDLES.randomA : FLOW_HANDLES.randomB;
        return this.follow(node.id, branch);
      }
      case 'ticket':
        this.actions.push({ type: 'moveToQueue', nodeId: node.id, queueId: node.data.queueId, queueName: node.data.queueName }, { type: 'handOver', nodeId: node.id });
        return this.finish('handover');
      case 'question':
        this.actions.push({ type: 'sendText', nodeId: node.id, text: this.render(node.data.typebotIntegration.message) });
        return this.await(node.id, 'question', node.data.typebotIntegration.timeoutSec);
      case 'typebot':
      case 'openai':
        return this.external(node);
    }
  }

  menuText(node: FlowNodeOf<'menu'>): string {
    const options = node.data.arrayOption.map((o) => `${o.number} - ${this.render(o.value)}`).join('\n');
    const message = this.render(node.data.message).trim();
    return message ? `${message}\n\n${options}` : options;
  }

  /** Waits for an answer; the timeout runs only when the node's "timeout" path is drawn. */
  await(nodeId: string, kind: 'menu' | 'question', timeoutSec: number | undefined, invalidCount = 0): null {
    this.state = { ...this.state, awaiting: { kind, nodeId, invalidCount } };
    if (this.target(nodeId, FLOW_HANDLES.timeout) !== null) this.setTimer(nodeId, timeoutSec ?? FLOW_INPUT_TIMEOUT_SEC, 'timeout');
    return null;
  }

  /** A content block's elements from `from` on, in `seq` order; an interval waits (purpose content). */
  content(node: FlowNodeOf<'singleBlock'>, from: number): string | null {
    const { seq, elements } = node.data;
    for (let i = from; i < seq.length; i++) {
      const el = elements.find((e) => e.number === seq[i]);
      const kind = el ? contentElementType(el) : null;
      if (!el || !kind) continue;
      if (kind === 'message') this.actions.push({ type: 'sendText', nodeId: node.id, text: this.render(el.value) });
      else if (kind === 'interval') {
        this.setTimer(node.id, Number(el.value), 'content', i + 1);
        return null;
      } else {
        const mediaType = kind === 'img' ? 'image' : kind;
        this.actions.push({ type: 'sendMedia', nodeId: node.id, mediaType, url: el.value, ...(el.original ? { name: el.original } : {}), ...(kind === 'audio' ? { record: el.record ?? false } : {}) });
      }
    }
    return this.follow(node.id, FLOW_HANDLES.next);
  }

  external(node: FlowNodeOf<'typebot' | 'openai'>): string | null {
    const kind = node.type;
    if (this.ctx.adapters?.[kind]) {
      this.actions.push({ type: 'askExternal', nodeId: node.id, kind, integration: { ...node.data.typebotIntegration }, variables: { ...this.state.variables } });
      this.state = { ...this.state, awaiting: { kind: 'external', nodeId: node.id, adapter: kind } };
      return null;
    }
    this.actions.push({ type: 'error', code: 'not_configured', nodeId: node.id, message: `The ${kind} integration is not configured` });
    return this.target(node.id, FLOW_HANDLES.notConfigured) ?? this.finish('error');
  }
}

/** The option a menu answer picks: its number (`2`, `2.`, `2)`, ` 2 `) or its text, folded. */
export function matchMenuOption(node: FlowNodeOf<'menu'>, answer: string): number | null {
  const folded = foldFlowText(answer);
  const digits = /^(\d+)\s*[.)\-:]?$/.exec(folded);
  if (digits) {
    const n = Number(digits[1]);
    return node.data.arrayOption.some((o) => o.number === n) ? n : null;
  }
  return node.data.arrayOption.find((o) => folded !== '' && foldFlowText(o.value) === folded)?.number ?? null;
}

function onInbound(run: Run, event: Extract<FlowEvent, { type: 'inbound' }>): void {
  const awaiting = run.state.awaiting;
  // Messages while the flow sends, waits on an interval or on an adapter are not answers.
  if (!awaiting || awaiting.kind === 'external') return;
  const node = run.index.nodes.get(awaiting.nodeId);
  const answer = event.text?.trim() || event.media?.url || event.media?.name || '';
  if (node?.type === 'question') {
    run.cancelTimer();
    run.state = { ...run.state, awaiting: null, variables: { ...run.state.variables, [node.data.typebotIntegration.answerKey]: answer } };
    return run.runFrom(run.follow(node.id, FLOW_HANDLES.next));
  }
  if (node?.type !== 'menu') {
    run.actions.push({ type: 'error', code: 'missing_node', nodeId: awaiting.nodeId, message: `The awaited node "${awaiting.nodeId}" is not in this flow` });
    run.finish('error');
    return;
  }
  const choice = matchMenuOption(node, event.text ?? '');
  if (choice !== null) {
    run.cancelTimer();
    run.state = { ...run.state, awaiting: null };
    return run.runFrom(run.follow(node.id, FLOW_HANDLES.menuOption(choice)));
  }
  const invalidCount = awaiting.invalidCount + 1;
  const invalidPath = run.target(node.id, FLOW_HANDLES.invalid);
  if (invalidPath !== null && invalidCount >= (run.ctx.maxInvalid ?? FLOW_MENU_MAX_INVALID)) {
    run.cancelTimer();
    run.state = { ...run.state, awaiting: null };
    return run.runFrom(invalidPath);
  }
  // Every invalid answer gets a reply: the invalid message, then the menu again.
  run.actions.push({ type: 'sendText', nodeId: node.id, text: run.render(node.data.invalidMessage ?? FLOW_INVALID_OPTION_MESSAGE) });
  run.actions.push({ type: 'sendText', nodeId: node.id, text: run.menuText(node) });
  run.await(node.id, 'menu', node.data.timeoutSec, invalidCount);
}

function onTimer(run: Run, timerId: string): void {
  const timer = run.state.timer;
  if (!timer || timer.id !== timerId) return; // stale, repeated or foreign: fired once only
  run.state = { ...run.state, timer: null };
  const node = run.index.nodes.get(timer.nodeId);
  if (timer.purpose === 'content' && node?.type === 'singleBlock') {
    run.steps++;
    return run.runFrom(run.content(node, timer.index ?? 0));
  }
  if (timer.purpose === 'timeout') {
    run.state = { ...run.state, awaiting: null };
    return run.runFrom(run.follow(timer.nodeId, FLOW_HANDLES.timeout));
  }
  run.runFrom(run.follow(timer.nodeId, FLOW_HANDLES.next));
}

function onExternal(run: Run, event: Extract<FlowEvent, { type: 'external' }>): void {
  const awaiting = run.state.awaiting;
  if (awaiting?.kind !== 'external' || awaiting.nodeId !== event.nodeId) return;
  run.state = { ...run.state, awaiting: null, variables: { ...run.state.variables, ...event.variables } };
  if (event.outcome === 'done') return run.runFrom(run.follow(event.nodeId, FLOW_HANDLES.next));
  run.actions.push({ type: 'error', code: 'external_failed', nodeId: event.nodeId, message: `The ${awaiting.adapter} integration failed` });
  run.runFrom(run.target(event.nodeId, FLOW_HANDLES.failed) ?? run.finish('error'));
}

/**
 * Moves one conversation of `flow` by one event. Returns the next state and the actions to perform,
 * in order. A finished state only answers `start` (which runs the flow again, keeping variables).
 */
export function step(flow: FlowGraph, state: FlowState, event: FlowEvent, ctx: FlowContext): FlowStepResult {
  if (state.finished && event.type !== 'start') return { state, actions: [] };
  const run = new Run(flow, state, ctx);
  switch (event.type) {
    case 'start':
      run.cancelTimer();
      run.state = { ...run.state, nodeId: null, awaiting: null, finished: false };
      if (run.index.startId === null) {
        run.actions.push({ type: 'error', code: 'missing_node', nodeId: null, message: 'The flow has no start node' });
        run.finish('error');
      } else run.runFrom(run.index.startId);
      break;
    case 'inbound':
      onInbound(run, event);
      break;
    case 'timer':
      onTimer(run, event.timerId);
      break;
    case 'external':
      onExternal(run, event);
      break;
    case 'stop':
      run.finish('stopped');
      break;
  }
  return { state: run.state, actions: run.actions };
}

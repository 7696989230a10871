// The test panel's conversation, pure: the editor plays the drawn flow with sync's one engine
// (`step`), so what the panel shows is what the server will do. The clock is fake (a button moves it
// to the pending wait), the randomizer draws from the caller's source, and every action the engine
// asks for becomes a line of the chat: sends as the flow's bubbles, the rest as notes.
import { createFlowState, step, type FlowAction, type FlowEvent, type FlowGraph, type FlowState, type TemplateVars } from '@zapdesk/sync';

export type NoteCode = 'wait' | 'answerWindow' | 'queue' | 'handover' | 'ask' | 'error' | 'end' | 'ignored' | 'notRunning';
export type ChatLine =
  | { id: number; from: 'contact'; text: string }
  | { id: number; from: 'flow'; nodeId: string; text: string; media?: { type: 'image' | 'audio' | 'video'; url: string } }
  | { id: number; from: 'note'; code: NoteCode; params: Record<string, string | number> };

/** A line before it gets its id. */
type NewLine = ChatLine extends infer L ? (L extends ChatLine ? Omit<L, 'id'> : never) : never;

export type Chat = { state: FlowState; lines: ChatLine[]; started: boolean; now: number; seq: number };

export type ChatInput =
  | { kind: 'start' }
  | { kind: 'say'; text: string }
  /** Moves the fake clock to the pending wait and fires it. */
  | { kind: 'fireTimer' }
  /** The typebot/openai adapter's report for the node the flow waits on. */
  | { kind: 'external'; outcome: 'done' | 'failed' }
  | { kind: 'stop' };

export type ChatOptions = { random: () => number; vars?: TemplateVars; adapters?: Partial<Record<'typebot' | 'openai', boolean>> };

/** A fixed start instant, so a replay of the same inputs shows the same chat. */
export const CHAT_EPOCH = Date.parse('2026-01-05T12:00:00.000Z');

export function createChat(now = CHAT_EPOCH): Chat {
  return { state: createFlowState(), lines: [], started: false, now, seq: 0 };
}

/** Seconds until the pending wait, or null when nothing waits. */
export function pendingWait(chat: Chat): number | null {
  if (!chat.state.timer || chat.state.finished) return null;
  return Math.max(0, Math.round((Date.parse(chat.state.timer.at) - chat.now) / 1000));
}

export function chatReducer(chat: Chat, input: ChatInput, graph: FlowGraph, opts: ChatOptions): Chat {
  let next: Chat = { ...chat, lines: [...chat.lines] };
  const line = (l: NewLine) => next.lines.push({ ...l, id: ++next.seq } as ChatLine);
  let event: FlowEvent;
  switch (input.kind) {
    case 'start':
      // A fresh conversation: new variables, nothing pending.
      next = { ...createChat(chat.now), seq: chat.seq, started: true };
      event = { type: 'start' };
      break;
    case 'say':
      line({ from: 'contact', text: input.text });
      if (!chat.started || chat.state.finished) {
        line({ from: 'note', code: 'notRunning', params: {} });
        return next;
      }
      event = { type: 'inbound', text: input.text };
      break;
    case 'fireTimer': {
      const timer = chat.state.timer;
      if (!timer || chat.state.finished) return chat;
      next.now = Math.max(chat.now, Date.parse(timer.at));
      event = { type: 'timer', timerId: timer.id };
      break;
    }
    case 'external': {
      const awaiting = chat.state.awaiting;
      if (awaiting?.kind !== 'external') return chat;
      event = { type: 'external', nodeId: awaiting.nodeId, outcome: input.outcome };
      break;
    }
    case 'stop':
      if (!chat.started || chat.state.finished) return chat;
      event = { type: 'stop' };
      break;
  }
  const result = step(graph, next.state, event, { now: new Date(next.now), random: opts.random, vars: opts.vars ?? {}, adapters: opts.adapters ?? {} });
  const before = next.lines.length;
  for (const action of result.actions) {
    const l = lineOf(action, next.now);
    // A menu's or question's timer is how long the answer may take, not a pause.
    if (l?.from === 'note' && l.code === 'wait' && action.type === 'setTimer' && result.state.timer?.id === action.id && result.state.timer.purpose === 'timeout') line({ ...l, code: 'answerWindow' });
    else if (l) line(l);
  }
  if (input.kind === 'say' && next.lines.length === before && result.state.awaiting === null) line({ from: 'note', code: 'ignored', params: {} });
  return { ...next, state: result.state };
}

function lineOf(action: FlowAction, now: number): NewLine | null {
  switch (action.type) {
    case 'sendText':
      return { from: 'flow', nodeId: action.nodeId, text: action.text };
    case 'sendMedia':
      return { from: 'flow', nodeId: action.nodeId, text: action.caption ?? '', media: { type: action.mediaType, url: action.name ?? action.url } };
    case 'setTimer':
      return { from: 'note', code: 'wait', params: { sec: Math.round((Date.parse(action.at) - now) / 1000) } };
    case 'moveToQueue':
      return { from: 'note', code: 'queue', params: { queue: action.queueName ?? `#${action.queueId}` } };
    case 'handOver':
      return { from: 'note', code: 'handover', params: {} };
    case 'askExternal':
      return { from: 'note', code: 'ask', params: { kind: action.kind } };
    case 'error':
      return { from: 'note', code: 'error', params: { message: action.message } };
    case 'end':
      return { from: 'note', code: 'end', params: { reason: action.reason } };
    case 'cancelTimer':
      return null;
  }
}

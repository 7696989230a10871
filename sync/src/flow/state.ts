import { z } from 'zod';
import type { TemplateVars } from '../domain/template.ts';

// What the engine reads and writes besides the graph: the state of one conversation in one flow
// (stored per ticket by the server, in memory by the editor's test panel), the events that move it
// and the actions it asks for. All plain data, so it can be stored as JSON, replayed and compared.

export const flowTimerSchema = z.object({
  id: z.string(),
  nodeId: z.string(),
  /** Due time, ISO-8601 UTC. */
  at: z.string(),
  /** interval: go on after the node; content: go on inside a content block at `index`; timeout: an awaited answer did not come. */
  purpose: z.enum(['interval', 'content', 'timeout']),
  index: z.number().int().nonnegative().optional(),
});
export type FlowTimer = z.infer<typeof flowTimerSchema>;

export const flowAwaitSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['menu', 'question']), nodeId: z.string(), invalidCount: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('external'), nodeId: z.string(), adapter: z.enum(['typebot', 'openai']) }),
]);
export type FlowAwait = z.infer<typeof flowAwaitSchema>;

export const flowStateSchema = z.object({
  /** The node the conversation is at (waiting there, or the last one run); null before the start. */
  nodeId: z.string().nullable(),
  awaiting: flowAwaitSchema.nullable(),
  timer: flowTimerSchema.nullable(),
  /** Answers and adapter results; merged, never wiped, kept across a restart of the flow. */
  variables: z.record(z.string(), z.string()),
  finished: z.boolean(),
  /** Counter behind timer ids, so every timer of a conversation has its own. */
  timerSeq: z.number().int().nonnegative(),
});
export type FlowState = z.infer<typeof flowStateSchema>;

/** The state before a flow starts; `variables` carry over what is already known. */
export function createFlowState(variables: Record<string, string> = {}): FlowState {
  return { nodeId: null, awaiting: null, timer: null, variables: { ...variables }, finished: false, timerSeq: 0 };
}

export type FlowMedia = { url?: string; name?: string; mimetype?: string };

export type FlowEvent =
  | { type: 'start' }
  /** A customer's message: its text (a media caption counts as text) and any media. */
  | { type: 'inbound'; text?: string; media?: FlowMedia }
  /** A timer the engine set is due; ids that are not the pending timer's are ignored. */
  | { type: 'timer'; timerId: string }
  /** What an adapter reported for the typebot or openai node the flow waits on. */
  | { type: 'external'; nodeId: string; outcome: 'done' | 'failed'; variables?: Record<string, string> }
  /** The conversation ended (closed, stopped by an agent, taken over). */
  | { type: 'stop' };

export type FlowMediaType = 'image' | 'audio' | 'video';
export type FlowEndReason = 'completed' | 'stopped' | 'handover' | 'error';
export type FlowErrorCode = 'loop' | 'not_configured' | 'external_failed' | 'missing_node';

export type FlowAction =
  | { type: 'sendText'; nodeId: string; text: string }
  /** `url` is the stored file name (an upload of spec/03 §7) or a URL; `record`: send audio as a voice note. */
  | { type: 'sendMedia'; nodeId: string; mediaType: FlowMediaType; url: string; caption?: string; name?: string; record?: boolean }
  | { type: 'setTimer'; nodeId: string; id: string; at: string }
  | { type: 'cancelTimer'; id: string }
  | { type: 'moveToQueue'; nodeId: string; queueId: number; queueName: string | null }
  | { type: 'handOver'; nodeId: string }
  /** Run the typebot or openai adapter with the node's integration; answer with an `external` event. */
  | { type: 'askExternal'; nodeId: string; kind: 'typebot' | 'openai'; integration: Record<string, unknown>; variables: Record<string, string> }
  /** Something the people who draw the flow should see; not a send. */
  | { type: 'error'; code: FlowErrorCode; nodeId: string | null; message: string }
  | { type: 'end'; reason: FlowEndReason };

export type FlowContext = {
  /** The moment of the event; timers are due relative to it. */
  now: Date;
  /** Uniform in [0, 1): the randomizer's draw (seeded in tests and in the editor's replay). */
  random: () => number;
  /** Contact fields and template variables (`buildTemplateVars`): texts and conditions read them. */
  vars?: TemplateVars;
  /** Which adapters are configured; a typebot or openai node without one takes its notConfigured path. */
  adapters?: Partial<Record<'typebot' | 'openai', boolean>>;
  /** Nodes one event may run (default FLOW_MAX_STEPS_PER_EVENT). */
  maxSteps?: number;
  /** Invalid answers before a menu's "invalid" path (default FLOW_MENU_MAX_INVALID). */
  maxInvalid?: number;
};

export type FlowStepResult = { state: FlowState; actions: FlowAction[] };

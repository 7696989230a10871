// The seam between a conversation and the services that answer it (DESIGN §13): each adapter gets
// one turn's context, makes its calls (outside any transaction) and answers what to do; the runtime
// (../turn.ts) writes that answer. Adapters never touch the database.
import type { TargetPolicy } from '../../webhooks/target.ts';

/** A message of the conversation as the services see it. */
export type TurnMessage = {
  id: number;
  fromMe: boolean;
  body: string;
  mediaType: string | null;
  /** The file on disk (for a transcription), and a link a receiver can download for a while. */
  mediaPath: string | null;
  mediaUrl: string | null;
  /** What a voice note said, once heard. */
  transcript: string | null;
  createdAt: string;
};

export type TurnContext = {
  /** Stable per turn: a retried call carries the same id (webhook receivers de-duplicate on it). */
  deliveryId: string;
  company: { id: number; name: string };
  connection: { id: number; name: string; number: string | null };
  ticket: { id: number; uuid: string; status: string; queueId: number | null };
  contact: { id: number; name: string; number: string; email: string };
  /** The customer's message this turn answers. */
  message: TurnMessage | undefined;
  signal: AbortSignal;
  /** Where the URLs a tenant typed may lead (the integration's, a token URI, a file answered): webhooks/target.ts. */
  targets: TargetPolicy;
};

/** One message to send: text, or a remote file (downloaded before the write) with its caption. */
export type Reply = { text: string; media?: { url: string; kind: 'image' | 'audio' | 'video' | 'file' } };

export type TurnOutcome = {
  replies: Reply[];
  /** Milliseconds between two replies (Typebot's delay); they leave in order either way. */
  gapMs?: number;
  /** The assistant hands the conversation to people: the ticket goes to `queueId` (unchanged when null). */
  handOver?: { queueId: number | null; reason: string };
  /** The session to keep at the service for this ticket (`null`: forget it). */
  session?: { id: string; data: unknown; expiresAt: string | null } | null;
  usage?: { model: string; promptTokens: number; completionTokens: number };
};

/** A failure worth another attempt later (a receiver's 5xx, a refused connection). */
export class RetryableError extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

// A prompt answers the customer through the `openai` SDK (v6): chat completions with the prompt as
// the system message and the ticket's latest `maxMessages` messages as the conversation, the
// prompt's own API key, `max_completion_tokens`, the temperature only for models that accept one,
// and one tool: `transfer_to_human`, which the model calls to hand the customer to people (the
// prompt's queue). Voice notes are transcribed first (audio transcriptions). OPENAI_BASE_URL (or
// config.assistants.openaiBaseUrl) points it at any compatible endpoint; tests use a local fake.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import OpenAI, { APIConnectionTimeoutError, APIUserAbortError, toFile } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { leanFetch } from './lean-fetch.ts';
import type { TurnContext, TurnMessage, TurnOutcome } from './types.ts';

export type PromptConfig = {
  name: string;
  prompt: string;
  model: string;
  apiKey: string;
  maxTokens: number;
  temperature: number;
  /** How many of the latest messages the model reads. */
  maxMessages: number;
  /** The queue that takes the customer when the model hands over. */
  queueId: number | null;
  queueName: string | null;
};

export type OpenAiOptions = { baseURL: string | undefined; timeoutMs: number; transcriptionModel: string };

export const TRANSFER_TOOL = 'transfer_to_human';

// Reasoning models (o1, o3, o4-mini, gpt-5…) refuse any temperature but the default.
const FIXED_TEMPERATURE = /^(o\d|gpt-5)/i;

/** One client per API key: keys of different prompts never mix, and connections are reused. */
const clients = new Map<string, OpenAI>();
function clientFor(apiKey: string, opts: OpenAiOptions): OpenAI {
  const key = `${opts.baseURL ?? ''}\n${apiKey}`;
  let client = clients.get(key);
  if (!client) {
    // One retry for a dropped connection, a 429 or a 5xx; the turn's deadline bounds it all.
    client = new OpenAI({ apiKey, baseURL: opts.baseURL, timeout: opts.timeoutMs, maxRetries: 1, fetch: leanFetch });
    if (clients.size > 500) clients.clear();
    clients.set(key, client);
  }
  return client;
}

/** What each voice note of the history said (transcribed now when not yet known). */
export async function transcribeVoiceNotes(prompt: PromptConfig, history: TurnMessage[], opts: OpenAiOptions, signal: AbortSignal): Promise<Map<number, string>> {
  const heard = new Map<number, string>();
  const client = clientFor(prompt.apiKey, opts);
  for (const m of history) {
    if (m.fromMe || m.mediaType !== 'audio' || m.transcript !== null || !m.mediaPath) continue;
    const data = await readFile(m.mediaPath);
    const file = await toFile(data, path.basename(m.mediaPath));
    const result = await client.audio.transcriptions.create({ file, model: opts.transcriptionModel }, { signal });
    heard.set(m.id, result.text.trim());
  }
  return heard;
}

function contentOf(m: TurnMessage, heard: Map<number, string>): string {
  const transcript = m.transcript ?? heard.get(m.id);
  if (m.mediaType === 'audio') return transcript ? `(voice note) ${transcript}` : '(voice note that could not be heard)';
  if (m.mediaType && m.mediaType !== 'chat') return `(${m.mediaType === 'application' ? 'file' : m.mediaType}) ${m.body}`.trim();
  return m.body;
}

export function buildChatMessages(prompt: PromptConfig, ctx: Pick<TurnContext, 'company' | 'contact'>, history: TurnMessage[], heard: Map<number, string>): ChatCompletionMessageParam[] {
  const handOver = prompt.queueName
    ? `When the customer asks for a person, or you cannot help, call ${TRANSFER_TOOL}: an attendant of ${prompt.queueName} continues.`
    : `When the customer asks for a person, or you cannot help, call ${TRANSFER_TOOL}.`;
  const system = `${prompt.prompt}\n\nYou are answering ${ctx.contact.name} on WhatsApp for ${ctx.company.name}. ${handOver}`;
  const turns: ChatCompletionMessageParam[] = history
    .map((m) => ({ role: m.fromMe ? ('assistant' as const) : ('user' as const), content: contentOf(m, heard) }))
    .filter((m) => m.content.trim() !== '');
  return [{ role: 'system', content: system }, ...turns];
}

const transferTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: TRANSFER_TOOL,
    description: 'Hand the conversation over to a human attendant.',
    parameters: {
      type: 'object',
      properties: {
        reason: { type: 'string', description: 'Why the customer needs a person.' },
        message: { type: 'string', description: 'What to tell the customer while they wait, in their language.' },
      },
      required: ['reason'],
      additionalProperties: false,
    },
  },
};

export async function answerWithPrompt(prompt: PromptConfig, ctx: TurnContext, history: TurnMessage[], opts: OpenAiOptions): Promise<TurnOutcome & { heard: Map<number, string> }> {
  const client = clientFor(prompt.apiKey, opts);
  const heard = await transcribeVoiceNotes(prompt, history, opts, ctx.signal);
  const completion = await client.chat.completions.create(
    {
      model: prompt.model,
      messages: buildChatMessages(prompt, ctx, history, heard),
      max_completion_tokens: prompt.maxTokens,
      ...(FIXED_TEMPERATURE.test(prompt.model) ? {} : { temperature: prompt.temperature }),
      tools: [transferTool],
      user: `company-${ctx.company.id}-contact-${ctx.contact.id}`,
    },
    { signal: ctx.signal },
  );
  const choice = completion.choices[0];
  const usage = completion.usage
    ? { model: completion.model || prompt.model, promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens }
    : undefined;
  const text = choice?.message.content?.trim() ?? '';
  const call = choice?.message.tool_calls?.find((c) => c.type === 'function' && c.function.name === TRANSFER_TOOL);
  if (call && call.type === 'function') {
    const args = parseArgs(call.function.arguments);
    const say = text || args.message || '';
    return { replies: say ? [{ text: say }] : [], handOver: { queueId: prompt.queueId, reason: args.reason || 'asked for a person' }, usage, heard };
  }
  return { replies: text ? [{ text }] : [], usage, heard };
}

function parseArgs(raw: string): { reason?: string; message?: string } {
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    return { reason: typeof value.reason === 'string' ? value.reason : undefined, message: typeof value.message === 'string' ? value.message : undefined };
  } catch {
    return {};
  }
}

/** A timeout (ours or the SDK's) reads as one, whatever the SDK wrapped it in. */
export const isTimeout = (err: unknown) => err instanceof APIConnectionTimeoutError || err instanceof APIUserAbortError;

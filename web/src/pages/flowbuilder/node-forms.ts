// The node dialogs' rules (spec/03 §3, §5), pure: each type's empty data, the check of a dialog's
// data with sync's node schemas (the same the save and the server apply) plus the editor's own rule
// (an answer name belongs to one question), the upload caps, and the content block's elements.
import type { z } from 'zod';
import {
  audioDataSchema, conditionDataSchema, imgDataSchema, intervalDataSchema, menuDataSchema, messageDataSchema, openaiDataSchema,
  questionDataSchema, randomizerDataSchema, singleBlockDataSchema, ticketDataSchema, typebotDataSchema, videoDataSchema,
  contentElementType, type ContentElementType, type FlowNodeType,
} from '@zapdesk/sync';

export type Data = Record<string, unknown>;
/** Field path (`sec`, `arrayOption.0.value`, `typebotIntegration.answerKey`) → a `flowbuilder.rules.*` key. */
export type FormErrors = Record<string, string>;

export function emptyData(type: FlowNodeType): Data {
  switch (type) {
    case 'start': return { label: 'Inicio do fluxo' };
    case 'message': return { label: '' };
    case 'interval': return { sec: 5 };
    case 'condition': return { key: '', condition: 'equals', value: '' };
    case 'menu': return { message: '', arrayOption: [{ number: 1, value: '' }] };
    case 'img': case 'video': return { url: '', caption: '' };
    case 'audio': return { url: '', record: true };
    case 'singleBlock': return { seq: [], elements: [] };
    case 'randomizer': return { percent: 50 };
    case 'ticket': return {};
    case 'question': return { typebotIntegration: { message: '', answerKey: '' } };
    case 'typebot': return { typebotIntegration: {} };
    case 'openai':
      return { typebotIntegration: { name: '', projectName: '', apiKey: '', prompt: '', voice: 'texto', voiceKey: '', voiceRegion: '', temperature: 1, maxTokens: 100, maxMessages: 10 } };
  }
}

const SCHEMAS: Record<FlowNodeType, z.ZodType | null> = {
  start: null, message: messageDataSchema, interval: intervalDataSchema, condition: conditionDataSchema, menu: menuDataSchema,
  img: imgDataSchema, video: videoDataSchema, audio: audioDataSchema, singleBlock: singleBlockDataSchema, randomizer: randomizerDataSchema,
  ticket: ticketDataSchema, question: questionDataSchema, typebot: typebotDataSchema, openai: openaiDataSchema,
};

// The schemas' messages (spec/03 §5 wording where the spec has one) and the key that words each.
const RULES: Record<string, string> = {
  'Adicione o valor de intervalo': 'intervalRequired',
  'Máximo de tempo atingido 120 segundos': 'intervalMax',
  'Campos de mensagem vazio!': 'emptyMessage',
  'Delete os cards vazios(Imagem, Audio e Video)': 'emptyCards',
  'O intervalo não pode ser 0 ou maior que 120': 'contentInterval',
  'Adicione uma fila': 'queueRequired',
  'Mensagem is required': 'required',
  'Salvar resposta is required': 'required',
  'Salvar resposta: a letter, then letters, digits, - or _': 'answerKeyFormat',
  Required: 'required',
  'Empty menu option': 'emptyOption',
  'A menu needs at least one option': 'menuNeedsOption',
  'Choose the variable or contact field to compare': 'conditionKey',
};

/** The `flowbuilder.rules.*` key of a schema message (a message the map lacks reads as "invalid"). */
export function ruleKey(message: string): string {
  if (RULES[message]) return RULES[message];
  if (/appears twice/.test(message)) return 'duplicateOption';
  return 'invalid';
}

export type CheckContext = {
  /** The node being edited (null when creating): its own answer name is not a clash. */
  nodeId: string | null;
  /** Every other question's answer name, by node id. */
  answerKeys: { nodeId: string; key: string }[];
};

/** A dialog's data checked; `data` is what the node keeps (the dialog's fields, tidied). */
export function checkNodeData(type: FlowNodeType, raw: Data, ctx: CheckContext): { ok: true; data: Data } | { ok: false; errors: FormErrors } {
  const data = tidy(type, raw, ctx.nodeId === null);
  const errors: FormErrors = {};
  const schema = SCHEMAS[type];
  if (schema) {
    const parsed = schema.safeParse(data);
    if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path.map(String).join('.') || '_'] ??= ruleKey(issue.message);
  }
  // The saved flow may keep a Typebot step with no integration (its "not configured" way out), but
  // one drawn here chooses its integration, as a ticket step chooses its queue.
  if (type === 'typebot' && !(data.typebotIntegration as Data | undefined)?.id) errors['typebotIntegration.id'] ??= 'integrationRequired';
  if (type === 'question') {
    const key = String((data.typebotIntegration as Data).answerKey ?? '').trim();
    if (key && ctx.answerKeys.some((a) => a.key === key && a.nodeId !== ctx.nodeId)) errors['typebotIntegration.answerKey'] ??= 'answerKeyUsed';
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, data };
}

/** What a dialog stores beyond its fields: the interval's label (spec/03 §3), numbered options, the project name. */
function tidy(type: FlowNodeType, data: Data, creating: boolean): Data {
  if (type === 'interval') return { ...data, label: `Intervalo ${String(data.sec)} seg.` };
  if (type === 'menu') return { ...data, arrayOption: ((data.arrayOption as Data[]) ?? []).map((o, i) => ({ ...o, number: i + 1, value: String(o.value ?? '').trim() })) };
  if (type === 'question') {
    const q = data.typebotIntegration as Data;
    return { ...data, typebotIntegration: { ...q, answerKey: String(q.answerKey ?? '').trim() } };
  }
  if (type === 'openai' && creating) {
    const o = data.typebotIntegration as Data;
    return { ...data, typebotIntegration: { ...o, projectName: o.name } };
  }
  return data;
}

// Uploads (spec/03 §5): images png/jpg/jpeg up to 2 MB, audio ogg/mp3 (opus in content) up to 5 MB, video mp4 up to 20 MB.
export type MediaKind = 'img' | 'audio' | 'video';
const MB = 1024 * 1024;
export const UPLOAD_RULES: Record<MediaKind, { maxMb: number; extensions: string[] }> = {
  img: { maxMb: 2, extensions: ['png', 'jpg', 'jpeg'] },
  audio: { maxMb: 5, extensions: ['ogg', 'mp3', 'opus'] },
  video: { maxMb: 20, extensions: ['mp4'] },
};

export function acceptOf(kind: MediaKind): string {
  return UPLOAD_RULES[kind].extensions.map((e) => `.${e}`).join(',');
}

/** null when the file may go up, else the rule key and its parameters. */
export function checkUpload(kind: MediaKind, file: { name: string; size: number }, inContent = false): { key: 'tooBig' | 'badType'; mb: number; types: string } | null {
  const rule = UPLOAD_RULES[kind];
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  const allowed = kind === 'audio' && !inContent ? rule.extensions.filter((e) => e !== 'opus') : rule.extensions;
  if (!allowed.includes(ext)) return { key: 'badType', mb: rule.maxMb, types: allowed.join(', ') };
  if (file.size > rule.maxMb * MB) return { key: 'tooBig', mb: rule.maxMb, types: allowed.join(', ') };
  return null;
}

/** Where a node's media goes up (spec/03 §7): images and audio to their own call, video and content to /content. */
export function uploadPathOf(kind: MediaKind, inContent: boolean): 'img' | 'audio' | 'content' {
  if (inContent || kind === 'video') return 'content';
  return kind;
}

// The content block (singleBlock): `seq` lists element ids (message1, interval2, img3 …) in order.
export type ContentElement = { number: string; type: ContentElementType; value: string; original?: string; record?: boolean };

export function elementsInOrder(data: Data): ContentElement[] {
  const els = (data.elements as ContentElement[] | undefined) ?? [];
  const seq = (data.seq as string[] | undefined) ?? [];
  // Older blocks name an element's kind only by its id's prefix (message1, img3): read it as its type.
  return seq
    .map((id) => els.find((e) => e.number === id))
    .filter((e): e is ContentElement => e !== undefined)
    .map((e) => ({ ...e, value: String(e.value ?? ''), type: contentElementType(e) ?? e.type }));
}

/** A new element's id: its type and a number no element of the block has used. */
export function addElement(list: ContentElement[], type: ContentElementType): ContentElement[] {
  const used = list.map((e) => Number(e.number.replace(/^\D+/, '')) || 0);
  const n = used.length ? Math.max(...used) + 1 : 1;
  return [...list, { number: `${type}${n}`, type, value: type === 'interval' ? '5' : '', ...(type === 'audio' ? { record: true } : {}) }];
}

export function moveElement(list: ContentElement[], index: number, by: -1 | 1): ContentElement[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

export function contentData(list: ContentElement[]): Data {
  return { seq: list.map((e) => e.number), elements: list };
}

/** The randomizer's two branches (spec/03 §9: slider 0-100 step 10, the other branch the remainder). */
export function randomizerSplit(percent: number): { a: number; b: number } {
  const a = Math.min(100, Math.max(0, Math.round(percent / 10) * 10));
  return { a, b: 100 - a };
}

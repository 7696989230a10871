import { z } from 'zod';
import { FLOW_INPUT_TIMEOUT_MAX_SEC, FLOW_INTERVAL_MAX_SEC } from './constants.ts';

// The nodes of a flow as the editor saves them (spec/03 §3: React Flow nodes with id, type,
// position, data and an optional style). Objects are loose: whatever else the editor keeps on a node
// or in its data (width, selected, a label) survives a parse and a save. Field names are the spec's;
// the few we add (a menu's invalidMessage and timeoutSec, an image's caption) are optional.

export const FLOW_NODE_TYPES = [
  'start', 'message', 'interval', 'condition', 'menu', 'img', 'audio', 'video',
  'singleBlock', 'randomizer', 'ticket', 'question', 'typebot', 'openai',
] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

/** Condition operators (the spec names the field, not its values; README.md lists the rules). */
export const FLOW_CONDITION_OPERATORS = [
  'equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'endsWith',
  'greater', 'greaterOrEqual', 'less', 'lessOrEqual', 'exists', 'notExists',
] as const;
export type FlowConditionOperator = (typeof FLOW_CONDITION_OPERATORS)[number];

/** Other spellings an editor or an import may use for the operators. */
const OPERATOR_ALIASES: Record<string, FlowConditionOperator> = {
  '==': 'equals', '=': 'equals', '!=': 'notEquals', '<>': 'notEquals',
  '>': 'greater', '>=': 'greaterOrEqual', '<': 'less', '<=': 'lessOrEqual',
};

const text = z.union([z.string(), z.number()]).transform(String);
const requiredText = (message: string) => z.string({ error: message }).refine((v) => v.trim() !== '', { error: message });
const seconds = z.coerce
  .number({ error: 'Adicione o valor de intervalo' })
  .positive('Adicione o valor de intervalo')
  .max(FLOW_INTERVAL_MAX_SEC, `Máximo de tempo atingido ${FLOW_INTERVAL_MAX_SEC} segundos`);
const timeoutSec = z.coerce.number().positive().max(FLOW_INPUT_TIMEOUT_MAX_SEC).optional();
const position = z.object({ x: z.coerce.number(), y: z.coerce.number() });
/** A variable name usable in a template token (`{{name}}` or `{name}`). */
export const FLOW_VARIABLE_NAME = /^[A-Za-z][\w-]*$/;

const node = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.looseObject({ id: z.string().trim().min(1).max(100), type: z.literal(type), position, data });

export const startDataSchema = z.looseObject({ label: z.string().optional() });
export const messageDataSchema = z.looseObject({ label: requiredText('Campos de mensagem vazio!') });
export const intervalDataSchema = z.looseObject({ sec: seconds, label: z.string().optional() });

export const conditionDataSchema = z.looseObject({
  key: requiredText('Choose the variable or contact field to compare').transform((v) => v.trim()),
  condition: z.preprocess(
    (v) => (typeof v === 'string' && Object.prototype.hasOwnProperty.call(OPERATOR_ALIASES, v.trim()) ? OPERATOR_ALIASES[v.trim()] : v),
    z.enum(FLOW_CONDITION_OPERATORS, { error: `Unknown condition operator; use one of ${FLOW_CONDITION_OPERATORS.join(', ')}` }),
  ),
  value: text.optional().default(''),
});

export const menuOptionSchema = z.looseObject({ number: z.coerce.number().int().positive(), value: requiredText('Empty menu option') });
export const menuDataSchema = z
  .looseObject({
    message: z.string().optional().default(''),
    arrayOption: z.array(menuOptionSchema).min(1, 'A menu needs at least one option'),
    /** Sent before the menu again after an invalid answer (default FLOW_INVALID_OPTION_MESSAGE). */
    invalidMessage: z.string().optional(),
    /** How long the menu waits when its "timeout" path is drawn (default FLOW_INPUT_TIMEOUT_SEC). */
    timeoutSec,
  })
  .superRefine((data, ctx) => {
    const seen = new Set<number>();
    data.arrayOption.forEach((o, i) => {
      if (seen.has(o.number)) ctx.addIssue({ code: 'custom', path: ['arrayOption', i, 'number'], message: `Menu option ${o.number} appears twice` });
      seen.add(o.number);
    });
  });

const mediaUrl = requiredText('Delete os cards vazios(Imagem, Audio e Video)');
export const imgDataSchema = z.looseObject({ url: mediaUrl, caption: z.string().optional() });
export const videoDataSchema = z.looseObject({ url: mediaUrl, caption: z.string().optional() });
export const audioDataSchema = z.looseObject({ url: mediaUrl, record: z.boolean().optional().default(false) });
export const randomizerDataSchema = z.looseObject({ percent: z.coerce.number().min(0).max(100) });

/** The queue: `queueId`, or the queue object the dialog picked (`queue` or, older, `data`). */
export const ticketDataSchema = z
  .looseObject({
    queueId: z.coerce.number().int().positive().optional(),
    queue: z.looseObject({ id: z.coerce.number().int().positive().optional(), name: z.string().optional() }).optional(),
    data: z.looseObject({ id: z.coerce.number().int().positive().optional(), name: z.string().optional() }).optional(),
  })
  .transform((d, ctx) => {
    const queueId = d.queueId ?? d.queue?.id ?? d.data?.id;
    if (queueId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['queueId'], message: 'Adicione uma fila' });
      return z.NEVER;
    }
    return { ...d, queueId, queueName: d.queue?.name ?? d.data?.name ?? null };
  });

export const questionIntegrationSchema = z.looseObject({
  message: requiredText('Mensagem is required'),
  answerKey: requiredText('Salvar resposta is required')
    .transform((v) => v.trim())
    .refine((v) => FLOW_VARIABLE_NAME.test(v), { error: 'Salvar resposta: a letter, then letters, digits, - or _' }),
  timeoutSec,
});
export const questionDataSchema = z.looseObject({ typebotIntegration: questionIntegrationSchema });

export const FLOW_VOICES = [
  'texto', 'pt-BR-FranciscaNeural', 'pt-BR-AntonioNeural', 'pt-BR-BrendaNeural', 'pt-BR-DonatoNeural', 'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural', 'pt-BR-GiovannaNeural', 'pt-BR-HumbertoNeural', 'pt-BR-JulioNeural', 'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural', 'pt-BR-ManuelaNeural', 'pt-BR-NicolauNeural', 'pt-BR-ValerioNeural', 'pt-BR-YaraNeural',
] as const;

export const openaiIntegrationSchema = z.looseObject({
  name: requiredText('Required'),
  projectName: z.string().optional(),
  apiKey: requiredText('Required'),
  prompt: requiredText('Required'),
  voice: z.string().optional().default('texto'),
  voiceKey: z.string().optional(),
  voiceRegion: z.string().optional(),
  temperature: z.coerce.number().optional().default(1),
  maxTokens: z.coerce.number().optional().default(100),
  maxMessages: z.coerce.number().optional().default(10),
  queueId: z.coerce.number().int().positive().nullish(),
});
export const openaiDataSchema = z.looseObject({ typebotIntegration: openaiIntegrationSchema });
/** A typebot node holds the queue integration it runs (spec/03 §3: name, typebotSlug, urlN8N …). */
export const typebotDataSchema = z.looseObject({ typebotIntegration: z.looseObject({ id: z.coerce.number().int().positive().optional(), name: z.string().optional() }) });

export const CONTENT_ELEMENT_TYPES = ['message', 'interval', 'img', 'audio', 'video'] as const;
export type ContentElementType = (typeof CONTENT_ELEMENT_TYPES)[number];

/** The element's kind: its `type`, else the prefix of its id (`message1`, `interval2`, `img3` …). */
export function contentElementType(el: { type?: unknown; number: string }): ContentElementType | null {
  const t = typeof el.type === 'string' ? el.type : el.number.replace(/\d+$/, '');
  return (CONTENT_ELEMENT_TYPES as readonly string[]).includes(t) ? (t as ContentElementType) : null;
}

export const contentElementSchema = z.looseObject({
  number: z.string().min(1),
  type: z.string().optional(),
  value: text,
  original: z.string().optional(),
  record: z.boolean().optional(),
});
export const singleBlockDataSchema = z
  .looseObject({ seq: z.array(z.string()).min(1, 'Campos de mensagem vazio!'), elements: z.array(contentElementSchema) })
  .superRefine((data, ctx) => {
    data.seq.forEach((id, i) => {
      const el = data.elements.find((e) => e.number === id);
      if (!el) return ctx.addIssue({ code: 'custom', path: ['seq', i], message: `Content element "${id}" is missing` });
      const kind = contentElementType(el);
      const at = ['elements', data.elements.indexOf(el), 'value'];
      if (kind === null) return ctx.addIssue({ code: 'custom', path: at.slice(0, 2), message: `Unknown content element "${id}"` });
      if (kind === 'message' && el.value.trim() === '') ctx.addIssue({ code: 'custom', path: at, message: 'Campos de mensagem vazio!' });
      if (kind === 'interval') {
        const sec = Number(el.value);
        if (!(sec > 0 && sec <= FLOW_INTERVAL_MAX_SEC)) ctx.addIssue({ code: 'custom', path: at, message: `O intervalo não pode ser 0 ou maior que ${FLOW_INTERVAL_MAX_SEC}` });
      }
      if ((kind === 'img' || kind === 'audio' || kind === 'video') && el.value.trim() === '') ctx.addIssue({ code: 'custom', path: at, message: 'Delete os cards vazios(Imagem, Audio e Video)' });
    });
  });

/** `content` is the floating menu's name for singleBlock; both are read, singleBlock is stored. */
const typeAlias = (v: unknown) => (v && typeof v === 'object' && (v as { type?: unknown }).type === 'content' ? { ...v, type: 'singleBlock' } : v);

export const flowNodeSchema = z.preprocess(
  typeAlias,
  z.discriminatedUnion(
    'type',
    [
      node('start', startDataSchema), node('message', messageDataSchema), node('interval', intervalDataSchema),
      node('condition', conditionDataSchema), node('menu', menuDataSchema), node('img', imgDataSchema),
      node('audio', audioDataSchema), node('video', videoDataSchema), node('singleBlock', singleBlockDataSchema),
      node('randomizer', randomizerDataSchema), node('ticket', ticketDataSchema), node('question', questionDataSchema),
      node('typebot', typebotDataSchema), node('openai', openaiDataSchema),
    ],
    {
      error: (iss) =>
        iss.code === 'invalid_union'
          ? `Unknown node type "${String((iss.input as { type?: unknown } | null)?.type)}"; expected one of ${FLOW_NODE_TYPES.join(', ')}`
          : undefined,
    },
  ),
);
export type FlowNode = z.infer<typeof flowNodeSchema>;
export type FlowNodeOf<T extends FlowNodeType> = Extract<FlowNode, { type: T }>;

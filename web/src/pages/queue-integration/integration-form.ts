// The integration dialog's values and the body a save sends (spec/03 §5): only the chosen type's own
// fields (the server clears the others), secrets left out when empty (an empty secret keeps the
// stored one on edit, and on create an empty signing secret asks the server to generate one).
import { TYPEBOT_DEFAULTS, type IntegrationType, type QueueIntegration } from '@zapdesk/sync';

type FieldList = ['name', 'projectName', 'jsonContent', 'language', 'urlN8N', 'typebotSlug', 'typebotExpires', 'typebotDelayMessage', 'typebotKeywordFinish', 'typebotKeywordRestart', 'typebotUnknownMessage', 'typebotRestartMessage', 'flowId', 'signingSecret'];
export type Field = FieldList[number];
export type Values = { type: IntegrationType } & Record<Field, string>;

export function initialValues(i: QueueIntegration | null): Values {
  const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    type: i?.type ?? 'typebot',
    name: text(i?.name),
    projectName: text(i?.projectName),
    // Secrets are never put back in the form: an empty field keeps what is stored.
    jsonContent: '',
    signingSecret: '',
    language: text(i?.language) || 'pt-BR',
    urlN8N: text(i?.urlN8N),
    typebotSlug: text(i?.typebotSlug),
    typebotExpires: text(i?.typebotExpires ?? TYPEBOT_DEFAULTS.typebotExpires),
    typebotDelayMessage: text(i?.typebotDelayMessage ?? TYPEBOT_DEFAULTS.typebotDelayMessage),
    typebotKeywordFinish: text(i?.typebotKeywordFinish),
    typebotKeywordRestart: text(i?.typebotKeywordRestart),
    typebotUnknownMessage: text(i?.typebotUnknownMessage),
    typebotRestartMessage: text(i?.typebotRestartMessage),
    flowId: text(i?.flowId),
  };
}

const FIELDS_OF: Record<IntegrationType, Field[]> = {
  dialogflow: ['projectName', 'language', 'jsonContent'],
  n8n: ['urlN8N', 'signingSecret'],
  webhook: ['urlN8N', 'signingSecret'],
  typebot: ['urlN8N', 'typebotSlug', 'typebotExpires', 'typebotDelayMessage', 'typebotKeywordFinish', 'typebotKeywordRestart', 'typebotUnknownMessage', 'typebotRestartMessage'],
  flowbuilder: ['flowId'],
};

export function integrationBody(v: Values, editing: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { type: v.type, name: v.name, ...Object.fromEntries(FIELDS_OF[v.type].map((f) => [f, v[f]])) };
  for (const secret of ['jsonContent', 'signingSecret'] as const) if (body[secret] === '') delete body[secret];
  // An emptied Dialogflow project name on edit keeps the stored one rather than clearing it.
  if (editing && v.type === 'dialogflow' && v.projectName === '') delete body.projectName;
  return body;
}

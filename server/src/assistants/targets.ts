// Who answers a turn: the prompt or the queue integration named by the turn, read with its secret
// opened by the data key (auth/secret-box.ts). The plan must still include the feature.
import type { Selectable } from 'kysely';
import type { AppDeps } from '../context.ts';
import { companyPlanAllowsSoon } from '../auth/plan-gate.ts';
import { prepare } from '../db/prepared.ts';
import type { QueueIntegrations } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import type { PromptConfig } from './adapters/openai.ts';
import { speechSettingsOf, type SpeechSettings } from './adapters/speech.ts';
import { parseServiceAccount, type DialogflowConfig } from './adapters/dialogflow.ts';
import type { TypebotConfig } from './adapters/typebot.ts';
import type { WebhookConfig } from './adapters/webhook.ts';
import { loadVersionGraph, readState } from '../flows-runtime/runs.ts';
import { openFlowKey } from '../modules/flows/secrets.ts';
import type { TurnRow } from './turns.ts';

/** A flow's typebot or openai node that a turn answers for (the run goes on when it is done). */
export type FlowNodeRef = { runId: number; nodeId: string };

export type Target = (
  // `speech`: a flow's OpenAI step speaks its answers (or says why it cannot: they go as text).
  | { kind: 'prompt'; label: string; prompt: PromptConfig; speech?: SpeechSettings | { problem: string } }
  | { kind: 'typebot'; label: string; integrationId: number; typebot: TypebotConfig }
  | { kind: 'webhook'; label: string; integrationId: number; webhook: WebhookConfig }
  | { kind: 'dialogflow'; label: string; integrationId: number; dialogflow: Omit<DialogflowConfig, 'baseUrl'> }
) & { flow?: FlowNodeRef };

export type IntegrationRow = Selectable<QueueIntegrations>;

/** The target, or why there is none (an answer the turn fails with). */
export async function loadTarget(deps: AppDeps, turn: TurnRow): Promise<Target | { missing: string; flow?: FlowNodeRef }> {
  if (turn.kind === 'flow') return loadFlowNodeTarget(deps, turn);
  if (turn.kind === 'prompt') return loadPrompt(deps, turn.companyId, turn.targetId);
  return loadIntegration(deps, turn.companyId, turn.targetId);
}

async function loadPrompt(deps: AppDeps, companyId: number, promptId: number): Promise<Extract<Target, { kind: 'prompt' }> | { missing: string }> {
  if (!(await companyPlanAllowsSoon(deps, companyId, 'openAi'))) return { missing: 'the plan does not include AI prompts' };
  const row = (await selectPrompt(deps.db, { companyId, promptId })).rows[0];
  if (!row) return { missing: 'the prompt was deleted' };
  const apiKey = deps.secrets.open(row.apiKeyEnc);
  if (!apiKey) return { missing: "the prompt's API key cannot be read (was the data key changed?)" };
  return {
    kind: 'prompt',
    label: `AI "${row.name}"`,
    prompt: { name: row.name, prompt: row.prompt, model: row.model, apiKey, maxTokens: row.maxTokens, temperature: row.temperature, maxMessages: row.maxMessages, queueId: row.queueId, queueName: row.queueName ?? null },
  };
}

// Read by every prompt's turn: compiled once (../db/prepared.ts).
const selectPrompt = prepare((db, p: { companyId: number; promptId: number }) =>
  db
    .selectFrom('prompts')
    .leftJoin('queues', 'queues.id', 'prompts.queueId')
    .selectAll('prompts')
    .select('queues.name as queueName')
    .where('prompts.companyId', '=', p.companyId)
    .where('prompts.id', '=', p.promptId),
);

async function loadIntegration(deps: AppDeps, companyId: number, integrationId: number): Promise<Target | { missing: string }> {
  const t = tenant(deps.db, companyId);
  if (!(await companyPlanAllowsSoon(deps, companyId, 'integrations'))) return { missing: 'the plan does not include integrations' };
  const row: IntegrationRow | undefined = await t.selectFrom('queueIntegrations').selectAll('queueIntegrations').where('queueIntegrations.id', '=', integrationId).executeTakeFirst();
  if (!row) return { missing: 'the integration was deleted' };
  const label = `Integration "${row.name}"`;
  switch (row.type) {
    case 'typebot':
      if (!row.urlN8n || !row.typebotSlug) return { missing: 'the Typebot URL or slug is not set' };
      return {
        kind: 'typebot',
        label,
        integrationId: row.id,
        typebot: {
          url: row.urlN8n,
          slug: row.typebotSlug,
          delayMs: row.typebotDelayMessage,
          expiresMinutes: row.typebotExpires,
          keywordFinish: row.typebotKeywordFinish,
          keywordRestart: row.typebotKeywordRestart,
          restartMessage: row.typebotRestartMessage,
          unknownMessage: row.typebotUnknownMessage,
        },
      };
    case 'n8n':
    case 'webhook': {
      if (!row.urlN8n) return { missing: 'the URL is not set' };
      const secret = row.signingSecretEnc ? deps.secrets.open(row.signingSecretEnc) : null;
      return { kind: 'webhook', label, integrationId: row.id, webhook: { type: row.type, url: row.urlN8n, secret: secret ?? null } };
    }
    case 'dialogflow': {
      const json = row.jsonContent ? (deps.secrets.open(row.jsonContent) ?? row.jsonContent) : '';
      const account = parseServiceAccount(json);
      if (!account) return { missing: 'the Dialogflow credentials are not a service account key' };
      return { kind: 'dialogflow', label, integrationId: row.id, dialogflow: { account, language: row.language ?? 'pt-BR' } };
    }
    default:
      return { missing: `integrations of type ${row.type} do not answer messages` };
  }
}

/**
 * The node a flow run waits on: an openai node's own settings (its API key, prompt, model…; or a
 * saved prompt it names by `promptId`), a typebot node's Typebot integration (`typebotIntegration.id`).
 */
async function loadFlowNodeTarget(deps: AppDeps, turn: TurnRow): Promise<Target | { missing: string; flow?: FlowNodeRef }> {
  const run = await tenant(deps.db, turn.companyId).selectFrom('flowRuns').selectAll('flowRuns').where('flowRuns.id', '=', turn.targetId).executeTakeFirst();
  const awaiting = run?.status === 'running' ? readState(run).awaiting : null;
  if (!run || awaiting?.kind !== 'external') return { missing: 'the flow no longer waits for this step' };
  const flow = { runId: run.id, nodeId: awaiting.nodeId };
  const graph = await loadVersionGraph(deps, turn.companyId, run.flowVersionId);
  const node = graph.nodes.find((n) => n.id === awaiting.nodeId);
  const data = (node?.data as { typebotIntegration?: Record<string, unknown> } | undefined)?.typebotIntegration ?? {};
  if (node?.type === 'openai') {
    const speech = speechSettingsOf(data, openFlowKey(data, deps.secrets, 'voiceKey'));
    const promptId = Number(data.promptId);
    if (Number.isInteger(promptId) && promptId > 0) {
      const target = await loadPrompt(deps, turn.companyId, promptId);
      return 'missing' in target ? { ...target, flow } : { ...target, speech, flow };
    }
    if (!(await companyPlanAllowsSoon(deps, turn.companyId, 'openAi'))) return { missing: 'the plan does not include AI prompts', flow };
    const apiKey = openFlowKey(data, deps.secrets) ?? '';
    if (!apiKey || !data.prompt) return { missing: 'the OpenAI step has no API key or prompt', flow };
    const num = (v: unknown, fallback: number) => (Number.isFinite(Number(v)) && v !== '' && v !== null && v !== undefined ? Number(v) : fallback);
    return {
      kind: 'prompt',
      label: `AI "${String(data.name ?? 'OpenAI')}"`,
      flow,
      speech,
      prompt: {
        name: String(data.name ?? 'OpenAI'),
        prompt: String(data.prompt),
        model: String(data.model ?? 'gpt-4o-mini'),
        apiKey,
        maxTokens: num(data.maxTokens, 100),
        temperature: num(data.temperature, 1),
        maxMessages: num(data.maxMessages, 10),
        queueId: null,
        queueName: null,
      },
    };
  }
  const integrationId = Number(data.id);
  if (node?.type !== 'typebot' || !Number.isInteger(integrationId) || integrationId <= 0) return { missing: 'the Typebot step names no integration', flow };
  const target = await loadIntegration(deps, turn.companyId, integrationId);
  if ('missing' in target) return { ...target, flow };
  if (target.kind !== 'typebot') return { missing: 'the Typebot step names an integration that is not a Typebot', flow };
  return { ...target, flow };
}

// Who answers a turn: the prompt or the queue integration named by the turn, read with its secret
// opened by the data key (auth/secret-box.ts). The plan must still include the feature.
import type { Selectable } from 'kysely';
import type { AppDeps } from '../context.ts';
import { companyPlanAllows } from '../auth/plan-gate.ts';
import type { QueueIntegrations } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import type { PromptConfig } from './adapters/openai.ts';
import { parseServiceAccount, type DialogflowConfig } from './adapters/dialogflow.ts';
import type { TypebotConfig } from './adapters/typebot.ts';
import type { WebhookConfig } from './adapters/webhook.ts';
import type { TurnRow } from './turns.ts';

export type Target =
  | { kind: 'prompt'; label: string; prompt: PromptConfig }
  | { kind: 'typebot'; label: string; integrationId: number; typebot: TypebotConfig }
  | { kind: 'webhook'; label: string; integrationId: number; webhook: WebhookConfig }
  | { kind: 'dialogflow'; label: string; integrationId: number; dialogflow: Omit<DialogflowConfig, 'baseUrl'> };

/** The integration row with the columns the administration adds (sealed signing secret, flow). */
export type IntegrationRow = Selectable<QueueIntegrations> & { signingSecretEnc?: string | null; flowId?: number | null };

/** The target, or why there is none (an answer the turn fails with). */
export async function loadTarget(deps: AppDeps, turn: TurnRow): Promise<Target | { missing: string }> {
  const t = tenant(deps.db, turn.companyId);
  if (turn.kind === 'prompt') {
    if (!(await companyPlanAllows(deps.db, turn.companyId, 'openAi'))) return { missing: 'the plan does not include AI prompts' };
    const row = await t
      .selectFrom('prompts')
      .leftJoin('queues', 'queues.id', 'prompts.queueId')
      .selectAll('prompts')
      .select('queues.name as queueName')
      .where('prompts.id', '=', turn.targetId)
      .executeTakeFirst();
    if (!row) return { missing: 'the prompt was deleted' };
    const apiKey = deps.secrets.open(row.apiKeyEnc);
    if (!apiKey) return { missing: "the prompt's API key cannot be read (was the data key changed?)" };
    return {
      kind: 'prompt',
      label: `AI "${row.name}"`,
      prompt: { name: row.name, prompt: row.prompt, model: row.model, apiKey, maxTokens: row.maxTokens, temperature: row.temperature, maxMessages: row.maxMessages, queueId: row.queueId, queueName: row.queueName ?? null },
    };
  }
  if (!(await companyPlanAllows(deps.db, turn.companyId, 'integrations'))) return { missing: 'the plan does not include integrations' };
  const row = (await t.selectFrom('queueIntegrations').selectAll('queueIntegrations').where('queueIntegrations.id', '=', turn.targetId).executeTakeFirst()) as IntegrationRow | undefined;
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

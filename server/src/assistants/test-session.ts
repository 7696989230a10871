// POST /queueIntegration/testSession (spec/03 §7: projectName, jsonContent, language): the
// Dialogflow dialog's "test" button. One detectIntent with a greeting in the chosen language, with
// the pasted service-account JSON (or, when the dialog shows the stored one masked, the stored
// credentials of `integrationId`). Answers what the agent said, or why it failed; nothing is stored
// and no transaction is open during the call.
import { AppError, idSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Actor, AppDeps, AppEnv } from '../context.ts';
import { requireAuth, requirePermission } from '../auth/middleware.ts';
import { requirePlan } from '../auth/plan-gate.ts';
import { tenant } from '../db/tenant.ts';
import { parseBody } from '../http/validate.ts';
import { answerWithDialogflow, parseServiceAccount } from './adapters/dialogflow.ts';
import type { TurnContext } from './adapters/types.ts';

export const testSessionSchema = z.object({
  projectName: z.string().trim().max(100).optional(),
  jsonContent: z.string().max(20_000).optional(),
  language: z.enum(['pt-BR', 'en', 'es']).default('pt-BR'),
  integrationId: idSchema.optional(),
});

const GREETING: Record<string, string> = { 'pt-BR': 'Olá', en: 'Hello', es: 'Hola' };

export async function testDialogflowSession(deps: AppDeps, actor: Actor, input: z.output<typeof testSessionSchema>): Promise<{ ok: boolean; reply?: string; handsOver?: boolean; error?: string }> {
  let json = input.jsonContent?.trim() ?? '';
  if ((!json || json.startsWith('••••')) && input.integrationId) {
    const row = await tenant(deps.db, actor.companyId).selectFrom('queueIntegrations').select(['queueIntegrations.jsonContent', 'queueIntegrations.type']).where('queueIntegrations.id', '=', input.integrationId).executeTakeFirst();
    if (!row) throw new AppError('ERR_NOT_FOUND', 'Integration not found.');
    json = row.jsonContent ? (deps.secrets.open(row.jsonContent) ?? row.jsonContent) : '';
  }
  const account = parseServiceAccount(json);
  if (!account) throw new AppError('ERR_VALIDATION', 'jsonContent: paste the service account key (JSON with project_id, client_email and private_key).', { issues: [{ path: 'jsonContent', message: 'not a service account key' }] });
  const ctx: TurnContext = {
    deliveryId: `test-${Date.now()}`,
    company: { id: actor.companyId, name: '' },
    connection: { id: 0, name: '', number: null },
    ticket: { id: 0, uuid: 'test', status: 'pending', queueId: null },
    contact: { id: actor.userId, name: 'test', number: '', email: '' },
    message: undefined,
    signal: AbortSignal.timeout(deps.config.assistants.timeoutMs),
    targets: { allowPrivate: deps.config.webhooks.allowPrivate },
  };
  try {
    const outcome = await answerWithDialogflow({ account, language: input.language, baseUrl: deps.config.assistants.dialogflowBaseUrl }, ctx, GREETING[input.language]!);
    return { ok: true, reply: outcome.replies.map((r) => r.text).join('\n'), handsOver: outcome.handOver !== undefined };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export function assistantsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const admin = requirePermission('drawer-admin-items:view');
  return new Hono<AppEnv>().post('/queueIntegration/testSession', auth, admin, requirePlan(deps, 'integrations'), async (c) => {
    const input = await parseBody(c, testSessionSchema);
    return c.json(await testDialogflowSession(deps, c.get('actor'), input));
  });
}

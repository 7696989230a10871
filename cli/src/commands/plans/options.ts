// The plan flags: the plan form's fields (spec/01 §3), parsed on the way out by planCreateSchema /
// planUpdateSchema from sync/.
import { z } from 'zod';
import { fromFileOption } from '../../input.ts';

const feature = (what: string) => z.boolean().optional().describe(`${what}; on by default in a new plan`);

export const planOptions = z.object({
  fromFile: fromFileOption,
  name: z.string().optional().describe('plan name (unique)'),
  users: z.string().optional().describe('most users a company may have'),
  connections: z.string().optional().describe('most WhatsApp connections'),
  queues: z.string().optional().describe('most queues'),
  value: z.string().optional().describe('monthly price in reais, like 49.90'),
  isPublic: z.boolean().optional().describe('offered on the public sign-up page'),
  campaigns: feature('campaigns'),
  schedules: feature('scheduled messages'),
  internalChat: feature('internal chat'),
  externalApi: feature('external API'),
  kanban: feature('kanban'),
  openAi: feature('AI prompts'),
  integrations: feature('integrations'),
});

// The one row → wire mapper of prompts (sync/src/domain/prompt.ts `promptSchema`). The key is opened
// only to be masked: no answer carries it.
import type { Prompt } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import { maskSecret, type SecretBox } from '../../auth/secret-box.ts';
import type { Prompts } from '../../db/schema.ts';

export type PromptRow = Selectable<Prompts> & { queueName: string | null };

export function toPromptDto(row: PromptRow, secrets: SecretBox): Prompt {
  const key = row.apiKeyEnc ? secrets.open(row.apiKeyEnc) : undefined;
  return {
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    model: row.model,
    maxTokens: row.maxTokens,
    temperature: Number(row.temperature),
    maxMessages: row.maxMessages,
    // A key sealed under another data key cannot be opened: it shows as stored, unreadable.
    apiKey: key === undefined ? (row.apiKeyEnc ? '••••' : '') : maskSecret(key),
    hasApiKey: Boolean(row.apiKeyEnc),
    queueId: row.queueId,
    queue: row.queueId !== null && row.queueName !== null ? { id: row.queueId, name: row.queueName } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

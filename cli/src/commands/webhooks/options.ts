// Flags of `webhooks create` and `webhooks update`, checked by the same schemas as the API.
import { WEBHOOK_EVENTS } from '@zapdesk/sync';
import { z } from 'zod';

export const eventsOption = z.string().describe(`comma-separated events: ${WEBHOOK_EVENTS.join(', ')}`);

/** `a, b,c` → ['a', 'b', 'c'] (the server says which one it does not know). */
export const eventList = (raw: string) =>
  raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);

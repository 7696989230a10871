import { z } from 'zod';
import { timestampSchema } from './common.ts';

// The sync protocol's own values (DESIGN §4): what the server puts in a client's view that is no
// entity of the product. A refused mutation reaches its client as mutationError/<clientID>/<mutationID>.

/**
 * A mutation the server refused for a business reason; kept in the view of the client group that
 * pushed it (its newest 50 per client), so the app can say why its optimistic change was undone.
 */
export const mutationErrorSchema = z.object({
  clientID: z.string().describe('The Replicache client that pushed the mutation'),
  mutationID: z.number().int(),
  name: z.string().describe('The mutator, e.g. updateSetting'),
  code: z.string().describe('An error code of the catalogue (errors.ts), translated like any other'),
  message: z.string(),
  createdAt: timestampSchema,
});
export type MutationError = z.infer<typeof mutationErrorSchema>;

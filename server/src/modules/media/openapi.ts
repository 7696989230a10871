// The OpenAPI documents of the media routes: the schemas their handlers parse (http/openapi/README.md).
import { z } from 'zod';
import { area, FILE_ANSWER } from '../../http/openapi/types.ts';

export const mediaDocs = area('Media', "Files of ticket messages. A link the API hands out is signed and expires; a signed-in user of the company may also fetch one with the access token.", {
  'GET /media/:companyId/tickets/:ticketId/:file': {
    summary: "A message's file",
    description: 'The links messages carry are signed (`exp` and `sig`) and need no token until they expire; without a valid signature, a signed-in user of the company may fetch the file with the access token.',
    params: { file: z.string() },
    query: z.object({ exp: z.string().optional().describe('When the signature expires (Unix seconds)'), sig: z.string().optional().describe('The signature of the path and exp') }),
    answer: FILE_ANSWER,
    auth: ['bearer'],
    errors: ['ERR_NOT_FOUND', 'ERR_NO_PERMISSION'],
  },
});

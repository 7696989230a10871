// The OpenAPI documents of the media routes: the schemas their handlers parse (http/openapi/README.md).
import { area } from '../../http/openapi/types.ts';

export const mediaDocs = area('Media', '', {
  'GET /media/:companyId/tickets/:ticketId/:file': { auth: [], errors: ['ERR_NOT_FOUND'] },
});

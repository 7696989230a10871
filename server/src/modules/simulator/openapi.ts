// The OpenAPI documents of the simulator routes: the schemas their handlers parse (http/openapi/README.md).
import { simulatorAckSchema, simulatorDropSchema, simulatorEditSchema, simulatorFaultsSchema, simulatorMessageSchema, simulatorNumberSchema, simulatorOutboxQuerySchema, simulatorRevokeSchema, simulatorScanSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const simulatorDocs = area('Simulator', '', {
  'POST /simulator/connections/:id/scan': { auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, body: simulatorScanSchema, guarded: true, errors: ['ERR_WAPP_NOT_INITIALIZED'] },
  'POST /simulator/connections/:id/drop': { auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, body: simulatorDropSchema, guarded: true },
  'POST /simulator/connections/:id/faults': { auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, body: simulatorFaultsSchema, guarded: true },
  'POST /simulator/messages': { auth: ['bearer'], body: simulatorMessageSchema, guarded: true, errors: ['ERR_NO_WAPP_FOUND'] },
  'POST /simulator/edits': { auth: ['bearer'], body: simulatorEditSchema, guarded: true, errors: ['ERR_NOT_FOUND'] },
  'POST /simulator/revokes': { auth: ['bearer'], body: simulatorRevokeSchema, guarded: true, errors: ['ERR_NO_WAPP_FOUND'] },
  'GET /simulator/outbox': { auth: ['bearer'], query: simulatorOutboxQuerySchema, guarded: true, errors: ['ERR_NO_WAPP_FOUND', 'ERR_ROUTE_NOT_FOUND'] },
  'POST /simulator/acks': { auth: ['bearer'], body: simulatorAckSchema, guarded: true, errors: ['ERR_NOT_FOUND'] },
  'POST /simulator/numbers': { auth: ['bearer'], body: simulatorNumberSchema, guarded: true },
});

import type { QueueRef } from '../../session/types.ts';

/** A user as GET /users and PUT /users/{id} answer (server/src/modules/users/dto.ts). */
export type UserRow = {
  id: number;
  name: string;
  email: string;
  profile: string;
  super: boolean;
  companyId: number;
  whatsappId: number | null;
  allTicket: string;
  showNoQueue: boolean;
  online: boolean;
  queues: QueueRef[];
};

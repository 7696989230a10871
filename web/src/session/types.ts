import type { PlanFlags } from '@zapdesk/sync';

export type CompanyRef = {
  id: number;
  name: string;
  email: string | null;
  dueDate: string | null;
  trialExpiration: string | null;
  status: boolean;
  planId: number | null;
  settings: { key: string; value: string }[];
};

export type QueueRef = { id: number; name: string; color: string };

/** The user of POST /auth/login and /auth/refresh_token (server/src/modules/users/dto.ts). */
export type SessionUser = {
  id: number;
  name: string;
  email: string;
  profile: string;
  super: boolean;
  companyId: number;
  whatsappId: number | null;
  allTicket: string;
  showNoQueue: boolean;
  language: string | null;
  queues: QueueRef[];
  company: CompanyRef;
};

export type SessionResponse = {
  token: string;
  user: SessionUser;
  subscription: { dueDate: string | null; daysLeft: number | null; expiresSoon: boolean };
};

/** undefined while the plan is loading, null when the company has none. */
export type SessionFlags = Partial<PlanFlags> | null | undefined;

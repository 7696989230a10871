// Answer shapes the CLI reads that sync/ does not export yet (Plan, Company and Help come from there).
export type QueueRef = { id: number; name: string; color: string };

export type User = {
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
  online: boolean;
  createdAt: string;
  updatedAt: string;
  queues: QueueRef[];
};

export type CompanyRef = { id: number; name: string; email: string | null; dueDate: string | null; status: boolean; planId: number | null };

export type Me = User & { company: CompanyRef };

export type LoginAnswer = {
  token: string;
  user: Me;
  subscription: { dueDate: string | null; daysLeft: number | null; expiresSoon: boolean };
};

export type UsersPage = { users: User[]; count: number; hasMore: boolean };

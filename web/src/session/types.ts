import type { PlanFlags } from '@zapdesk/sync';

// The user and the session answer are the domain's (SessionUser, SessionAnswer in @zapdesk/sync).

/** undefined while the plan is loading, null when the company has none. */
export type SessionFlags = Partial<PlanFlags> | null | undefined;

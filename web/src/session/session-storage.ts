// What a session writes to local storage (spec/01 §3) and reads back.
import { clearSessionStorage, writeStored, writeStoredJson } from './storage.ts';
import type { SessionAnswer, Setting } from '@zapdesk/sync';

/** A company setting campaignsEnabled = "true" turns on the cshow flag (spec/01 §3). */
export function campaignsFlag(settings: Setting[] | undefined): boolean {
  return settings?.some((s) => s.key === 'campaignsEnabled' && s.value === 'true') ?? false;
}

export function storeSession(session: SessionAnswer): void {
  const { user } = session;
  writeStoredJson('token', session.token);
  writeStoredJson('companyId', user.companyId);
  writeStoredJson('userId', user.id);
  writeStored('companyDueDate', user.company.dueDate);
  if (campaignsFlag(user.company.settings)) writeStored('cshow', 'true');
  else writeStored('cshow', null);
}

export { clearSessionStorage };

// The company as the API shows it (spec/01 §3): booleans for 0/1, schedules as a list, the plan's
// name beside its id, and campaignsEnabled from the company's settings row.
import { DEFAULT_SETTINGS, type Company, type Schedule, type CompanySettingEntry, type Recurrence } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Companies } from '../../db/schema.ts';

export type CompanyRow = Selectable<Companies> & { planName: string | null; campaignsEnabledValue: string | null };

export function toCompanyDto(row: CompanyRow, settings?: CompanySettingEntry[]): Company {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    planId: row.planId,
    plan: row.planId !== null && row.planName !== null ? { id: row.planId, name: row.planName } : null,
    status: row.status === 1,
    campaignsEnabled: (row.campaignsEnabledValue ?? DEFAULT_SETTINGS.campaignsEnabled) === 'true',
    dueDate: row.dueDate,
    recurrence: row.recurrence as Recurrence,
    trialExpiration: row.trialExpiration,
    schedules: parseSchedules(row.schedules),
    document: row.document,
    paymentMethod: row.paymentMethod,
    addressZip: row.addressZip,
    addressStreet: row.addressStreet,
    addressNumber: row.addressNumber,
    addressDistrict: row.addressDistrict,
    addressCity: row.addressCity,
    addressState: row.addressState,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(settings ? { settings } : {}),
  };
}

/** The stored JSON list; a damaged value reads as "no hours set" rather than failing the request. */
export function parseSchedules(text: string): Schedule[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as Schedule[]) : [];
  } catch {
    return [];
  }
}

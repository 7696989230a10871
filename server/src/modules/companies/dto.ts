// The one company mapper (sync/src/domain/company.ts): rows → the company every transport sends, the
// REST answers and company/<id> alike. Booleans for 0/1, schedules as a list, the plan in full (its
// flags gate features), and campaignsEnabled from the company's settings row.
import { DEFAULT_SETTINGS, type Company, type Recurrence, type Schedule, type Setting } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Companies, Plans } from '../../db/schema.ts';
import { toPlanDto } from '../plans/dto.ts';

export type CompanyRow = Selectable<Companies> & { campaignsEnabledValue: string | null };

/** `settings` is given where one company is read (GET /companies/{id}, the sync value), not in lists. */
export function toCompanyDto(row: CompanyRow, plan: Selectable<Plans> | undefined, settings?: Setting[]): Company {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    planId: row.planId,
    plan: plan ? toPlanDto(plan) : null,
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

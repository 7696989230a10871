import { describe, expect, it } from 'vitest';
import { companyCreateSchema, companySchedulesSchema, companyUpdateSchema, renewDueDate, signupSchema } from './company.ts';

const issuePaths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path.join('.'));

describe('renewDueDate', () => {
  const now = new Date('2026-01-10T12:00:00.000Z');

  it('adds 1, 2, 3, 6 or 12 months by recurrence to a due date still ahead', () => {
    const due = '2026-03-15T10:30:00.000Z';
    expect(renewDueDate(due, 'MENSAL', now)).toBe('2026-04-15T10:30:00.000Z');
    expect(renewDueDate(due, 'BIMESTRAL', now)).toBe('2026-05-15T10:30:00.000Z');
    expect(renewDueDate(due, 'TRIMESTRAL', now)).toBe('2026-06-15T10:30:00.000Z');
    expect(renewDueDate(due, 'SEMESTRAL', now)).toBe('2026-09-15T10:30:00.000Z');
    expect(renewDueDate(due, 'ANUAL', now)).toBe('2027-03-15T10:30:00.000Z');
  });

  it('keeps to the last day of a shorter month', () => {
    const early = new Date('2020-01-01T00:00:00.000Z');
    expect(renewDueDate('2026-01-31T12:00:00.000Z', 'MENSAL', early)).toBe('2026-02-28T12:00:00.000Z');
    expect(renewDueDate('2028-01-31T12:00:00.000Z', 'MENSAL', early)).toBe('2028-02-29T12:00:00.000Z');
    expect(renewDueDate('2026-03-31T12:00:00.000Z', 'MENSAL', early)).toBe('2026-04-30T12:00:00.000Z');
    expect(renewDueDate('2026-08-31T12:00:00.000Z', 'SEMESTRAL', early)).toBe('2027-02-28T12:00:00.000Z');
    expect(renewDueDate('2028-02-29T12:00:00.000Z', 'ANUAL', early)).toBe('2029-02-28T12:00:00.000Z');
    expect(renewDueDate('2026-12-31T12:00:00.000Z', 'BIMESTRAL', early)).toBe('2027-02-28T12:00:00.000Z');
  });

  it('counts from now when the due date has passed or is missing', () => {
    expect(renewDueDate('2025-06-01T00:00:00.000Z', 'MENSAL', now)).toBe('2026-02-10T12:00:00.000Z');
    expect(renewDueDate(null, 'TRIMESTRAL', now)).toBe('2026-04-10T12:00:00.000Z');
    expect(renewDueDate('not a date', 'MENSAL', now)).toBe('2026-02-10T12:00:00.000Z');
  });
});

describe('signupSchema', () => {
  const valid = { name: 'Acme Ltda', email: 'Owner@Acme.test', phone: '(11) 98765-4321', password: 'secret', planId: 1 };

  it('accepts the form, keeps the phone digits only and does not read dueDate, status or campaignsEnabled', () => {
    const r = signupSchema.parse({ ...valid, recurrence: 'MENSAL', dueDate: '1999-01-01', status: false, campaignsEnabled: false });
    expect(r).toEqual({ name: 'Acme Ltda', email: 'owner@acme.test', phone: '11987654321', password: 'secret', planId: 1, recurrence: 'MENSAL' });
    expect(signupSchema.parse({ ...valid, phone: '1198765432' }).phone).toBe('1198765432');
    expect(signupSchema.parse({ ...valid, phone: '' }).phone).toBeNull();
  });

  it('refuses a name outside 2-50, a bad email, a password outside 5-50, a bad phone, no plan', () => {
    expect(issuePaths(signupSchema.safeParse({ ...valid, name: 'A' }))).toEqual(['name']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, name: 'x'.repeat(51) }))).toEqual(['name']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, email: 'nope' }))).toEqual(['email']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, password: '1234' }))).toEqual(['password']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, password: 'x'.repeat(51) }))).toEqual(['password']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, phone: '119876543210' }))).toEqual(['phone']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, phone: '(11) 9876' }))).toEqual(['phone']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, planId: undefined }))).toEqual(['planId']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, planId: 99_999_999_999 }))).toEqual(['planId']);
    expect(issuePaths(signupSchema.safeParse({ ...valid, recurrence: 'ANUAL' }))).toEqual(['recurrence']);
  });
});

describe('company bodies', () => {
  it('reads dates as ISO UTC, a bare date lasting to the end of its day', () => {
    expect(companyUpdateSchema.parse({ dueDate: '2026-05-10' }).dueDate).toBe('2026-05-10T23:59:59.999Z');
    expect(companyUpdateSchema.parse({ dueDate: '2026-05-10T09:00:00-03:00' }).dueDate).toBe('2026-05-10T12:00:00.000Z');
    expect(issuePaths(companyUpdateSchema.safeParse({ dueDate: '10/05/2026' }))).toEqual(['dueDate']);
    expect(issuePaths(companyUpdateSchema.safeParse({ dueDate: '0000-01-01' }))).toEqual(['dueDate']);
    expect(issuePaths(companyUpdateSchema.safeParse({ dueDate: '2026-02-30' }))).toEqual(['dueDate']);
    expect(companyUpdateSchema.parse({ dueDate: null }).dueDate).toBeNull();
  });

  it('allows only the five recurrences', () => {
    expect(companyUpdateSchema.parse({ recurrence: 'SEMESTRAL' }).recurrence).toBe('SEMESTRAL');
    expect(issuePaths(companyUpdateSchema.safeParse({ recurrence: 'SEMANAL' }))).toEqual(['recurrence']);
  });

  it('needs an email when a first admin password is given', () => {
    expect(issuePaths(companyCreateSchema.safeParse({ name: 'Acme', planId: 1, password: 'secret' }))).toEqual(['email']);
    expect(companyCreateSchema.parse({ name: 'Acme', planId: '2', password: 'secret', adminEmail: 'a@acme.test' }).planId).toBe(2);
  });

  it('validates business hours as HH:mm, one entry per weekday', () => {
    const day = { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' };
    expect(companySchedulesSchema.parse({ schedules: [day] }).schedules).toEqual([day]);
    expect(issuePaths(companySchedulesSchema.safeParse({ schedules: [{ ...day, endTime: '24:00' }] }))).toEqual(['schedules.0.endTime']);
    expect(issuePaths(companySchedulesSchema.safeParse({ schedules: [{ ...day, startTime: '8:00' }] }))).toEqual(['schedules.0.startTime']);
    expect(issuePaths(companySchedulesSchema.safeParse({ schedules: [{ ...day, weekdayEn: 'funday' }] }))).toEqual(['schedules.0.weekdayEn']);
    expect(companySchedulesSchema.safeParse({ schedules: [day, day] }).success).toBe(false);
  });
});

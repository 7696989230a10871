import { describe, expect, it } from 'vitest';
import { scheduleCreateSchema, scheduleUpdateSchema } from './schedule.ts';

describe('schedule schemas', () => {
  it('accept an instant with a zone and store it in UTC', () => {
    expect(scheduleCreateSchema.parse({ body: 'Hello there', contactId: '3', sendAt: '2030-05-01T10:00Z' }).sendAt).toBe('2030-05-01T10:00:00.000Z');
    expect(scheduleCreateSchema.safeParse({ body: 'Hello there', contactId: 3, sendAt: '2030-05-01 10:00' }).success).toBe(false);
    expect(scheduleCreateSchema.safeParse({ body: 'Hello there', contactId: 3, sendAt: 'tomorrow' }).success).toBe(false);
    expect(scheduleUpdateSchema.parse({})).toEqual({});
    expect(scheduleUpdateSchema.safeParse({ body: '    hi    ' }).error?.issues[0]?.message).toBe('Mensagem muito curta');
  });
});

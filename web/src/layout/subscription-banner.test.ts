import { describe, expect, it } from 'vitest';
import { subscriptionBannerOf, trialOf } from './subscription-banner.ts';

const now = new Date('2027-03-10T12:00:00.000Z');
const day = (n: number) => new Date(Date.UTC(2027, 2, 10 + n, 23, 59, 59, 999)).toISOString();

describe('subscriptionBannerOf', () => {
  it('shows the trial days left while the company is still in its sign-up trial', () => {
    // Sign-up: due date = trial end, 3 days ahead (spec/01 §5).
    expect(subscriptionBannerOf({ dueDate: day(3), trialExpiration: day(3) }, now)).toEqual({ kind: 'trial', days: 3 });
    expect(subscriptionBannerOf({ dueDate: day(0), trialExpiration: day(0) }, now)).toEqual({ kind: 'trial', days: 0 });
  });

  it('after a payment past the trial, warns only when fewer than 5 days remain to the due date', () => {
    const paid = { trialExpiration: day(-20) };
    expect(subscriptionBannerOf({ ...paid, dueDate: day(4) }, now)).toEqual({ kind: 'due', days: 4, dueDate: day(4) });
    expect(subscriptionBannerOf({ ...paid, dueDate: day(0) }, now)).toEqual({ kind: 'due', days: 0, dueDate: day(0) });
    expect(subscriptionBannerOf({ ...paid, dueDate: day(5) }, now)).toBeNull();
    expect(subscriptionBannerOf({ ...paid, dueDate: day(30) }, now)).toBeNull();
    expect(subscriptionBannerOf({ ...paid, dueDate: day(-1) }, now)).toBeNull();
  });

  it('a trial company that paid (due date moved past the trial end) leaves the trial banner', () => {
    expect(subscriptionBannerOf({ dueDate: day(33), trialExpiration: day(3) }, now)).toBeNull();
    expect(subscriptionBannerOf({ dueDate: day(2), trialExpiration: null }, now)).toEqual({ kind: 'due', days: 2, dueDate: day(2) });
    expect(subscriptionBannerOf({ dueDate: null, trialExpiration: null }, now)).toBeNull();
  });
});

describe('trialOf', () => {
  it('is active with its days, over once past unpaid, and nothing for a company that paid past it', () => {
    expect(trialOf({ dueDate: day(3), trialExpiration: day(3) }, now)).toEqual({ state: 'active', days: 3 });
    expect(trialOf({ dueDate: day(-1), trialExpiration: day(-1) }, now)).toEqual({ state: 'over' });
    // Paid during the trial: the due date moved a month past the trial's end.
    expect(trialOf({ dueDate: day(33), trialExpiration: day(3) }, now)).toBeNull();
    expect(trialOf({ dueDate: day(30), trialExpiration: null }, now)).toBeNull();
  });
});

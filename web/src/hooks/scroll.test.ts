import { describe, expect, it } from 'vitest';
import { nearBottom } from './scroll.ts';

describe('nearBottom', () => {
  it('asks for the next page within 100 px of the bottom only', () => {
    expect(nearBottom({ scrollTop: 0, scrollHeight: 1000, clientHeight: 400 })).toBe(false);
    expect(nearBottom({ scrollTop: 500, scrollHeight: 1000, clientHeight: 400 })).toBe(false);
    expect(nearBottom({ scrollTop: 501, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(nearBottom({ scrollTop: 600, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
  });
});

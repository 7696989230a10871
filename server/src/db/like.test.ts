import { describe, expect, it } from 'vitest';
import { toLikePattern } from './like.ts';

describe('toLikePattern', () => {
  it('wraps the lower-cased search in % and escapes its own wildcards and backslashes', () => {
    expect(toLikePattern('Ana')).toBe('%ana%');
    expect(toLikePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

import { describe, expect, it } from 'vitest';
import { initialTheme } from './theme.ts';

describe('initialTheme', () => {
  it('prefers the saved choice, then the system preference', () => {
    expect(initialTheme('dark', false)).toBe('dark');
    expect(initialTheme('light', true)).toBe('light');
    expect(initialTheme(null, true)).toBe('dark');
    expect(initialTheme('garbage', false)).toBe('light');
  });
});

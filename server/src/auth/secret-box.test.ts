import { describe, expect, it } from 'vitest';
import { createSecretBox, maskSecret } from './secret-box.ts';

describe('secret box', () => {
  const box = createSecretBox('test-key');

  it('opens what it sealed, and each seal differs', () => {
    const a = box.seal('sk-live-123456');
    const b = box.seal('sk-live-123456');
    expect(a).not.toBe(b);
    expect(a).not.toContain('sk-live');
    expect(box.open(a)).toBe('sk-live-123456');
    expect(box.open(b)).toBe('sk-live-123456');
  });

  it('refuses another key, an altered value and plain text', () => {
    const sealed = box.seal('secret');
    expect(createSecretBox('other-key').open(sealed)).toBeUndefined();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('x' + Buffer.from(parts[3]!, 'base64url').toString('utf8')).toString('base64url');
    expect(box.open(parts.join(':'))).toBeUndefined();
    expect(box.open('secret')).toBeUndefined();
  });

  it('opens a value again, also after more values than it remembers', () => {
    const values = Array.from({ length: 600 }, (_, i) => `sk-${i}`);
    const sealed = values.map((v) => box.seal(v));
    for (let round = 0; round < 2; round++) expect(sealed.map((s) => box.open(s))).toEqual(values);
    // What it remembers is per key: another box opens none of them.
    expect(createSecretBox('other-key').open(sealed[0]!)).toBeUndefined();
  });

  it('masks all but the last four characters', () => {
    expect(maskSecret('sk-abcdefghijklmnop')).toBe('••••mnop');
    expect(maskSecret('short')).toBe('••••');
    expect(maskSecret('')).toBe('');
    expect(maskSecret(null)).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { createReceiptBook } from './receipts.ts';

describe('receipt book', () => {
  it('keeps a receipt that found no message until its send is recorded, the highest ack once', () => {
    const book = createReceiptBook();
    expect(book.unmatched(1, 'A', 2)).toBe('held');
    expect(book.unmatched(1, 'A', 3)).toBe('held');
    expect(book.unmatched(1, 'A', 2)).toBe('held');
    // Another connection's message of the same id is another message.
    expect(book.recorded(2, ['A'])).toEqual([]);
    expect(book.recorded(1, ['B', 'A'])).toEqual([{ id: 'A', ack: 3 }]);
    expect(book.recorded(1, ['A'])).toEqual([]);
  });

  it('answers retry for a receipt whose send was recorded meanwhile', () => {
    const book = createReceiptBook();
    expect(book.recorded(1, ['A'])).toEqual([]);
    expect(book.unmatched(1, 'A', 2)).toBe('retry');
    expect(book.unmatched(2, 'A', 2)).toBe('held');
  });

  it('forgets what is older than keepMs, and the oldest past max', () => {
    let now = 0;
    const book = createReceiptBook({ keepMs: 1_000, max: 2, now: () => now });
    book.unmatched(1, 'old', 2);
    book.recorded(1, ['done']);
    now = 1_000;
    expect(book.unmatched(1, 'done', 2)).toBe('held');
    expect(book.recorded(1, ['old'])).toEqual([]);
    book.unmatched(1, 'x', 2);
    book.unmatched(1, 'y', 2);
    book.unmatched(1, 'z', 2);
    expect(book.recorded(1, ['x', 'y', 'z'])).toEqual([
      { id: 'y', ack: 2 },
      { id: 'z', ack: 2 },
    ]);
  });
});

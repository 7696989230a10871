import { describe, expect, it } from 'vitest';
import { CONNECTION_STATUSES } from '@zapdesk/sync';
import { formatDateTime, qrModalDone, sessionActions, statusTone } from './session-actions.ts';

describe('session actions by status (spec/03 §2)', () => {
  it('offers try-again and new QR when disconnected, a QR button while showing a code', () => {
    expect(sessionActions('DISCONNECTED')).toEqual(['tryAgain', 'newQr']);
    expect(sessionActions('qrcode')).toEqual(['qr']);
  });

  it('offers disconnect when connected, pairing or timed out, and a disabled connecting button while opening', () => {
    for (const s of ['CONNECTED', 'PAIRING', 'TIMEOUT']) expect(sessionActions(s)).toEqual(['disconnect']);
    expect(sessionActions('OPENING')).toEqual(['connecting']);
    // A delete cut short: no session action whatever the status (the server refuses them).
    for (const s of ['DISCONNECTED', 'qrcode', 'CONNECTED', 'OPENING']) expect(sessionActions(s, true)).toEqual([]);
  });

  it('has an action for every status the server writes, none for an unknown one', () => {
    for (const s of CONNECTION_STATUSES) expect(sessionActions(s).length).toBeGreaterThan(0);
    expect(sessionActions('whatever')).toEqual([]);
  });

  it('colours connected as brand, broken sessions as danger, pairing as warning', () => {
    expect(statusTone('CONNECTED')).toBe('brand');
    expect(statusTone('TIMEOUT')).toBe('danger');
    expect(statusTone('qrcode')).toBe('warning');
    expect(statusTone('OPENING')).toBe('neutral');
  });
});

describe('the QR modal closes by itself', () => {
  it('when the connection connects or disappears', () => {
    expect(qrModalDone({ status: 'CONNECTED', qrcode: '' }, false)).toBe(true);
    expect(qrModalDone(undefined, true)).toBe(true);
  });

  it('when the code empties after one was shown, but not while the first code is awaited', () => {
    expect(qrModalDone({ status: 'OPENING', qrcode: '' }, false)).toBe(false);
    expect(qrModalDone({ status: 'qrcode', qrcode: '2@abc' }, true)).toBe(false);
    expect(qrModalDone({ status: 'TIMEOUT', qrcode: '' }, true)).toBe(true);
  });
});

describe('last update', () => {
  it('reads day/month/year hour:minute', () => {
    const iso = new Date(2026, 10, 3, 9, 5).toISOString();
    expect(formatDateTime(iso, 'en')).toBe('03/11/2026 09:05');
    expect(formatDateTime(iso, 'pt')).toBe('03/11/2026 09:05');
    expect(formatDateTime('nope', 'en')).toBe('');
  });
});

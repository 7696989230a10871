import { describe, expect, it } from 'vitest';
import { fillQuickAnswer } from './compose.ts';

describe('fillQuickAnswer', () => {
  const ticket = {
    id: 42,
    contact: { id: 1, name: 'Maria Clara', number: '5511988887777', email: 'maria@example.com', profilePicUrl: null, isGroup: false, disableBot: false },
    queue: { id: 3, name: 'Sales', color: '#000' },
    whatsapp: { id: 9, name: 'Main line', status: 'CONNECTED' },
  };

  it('fills the ticket’s contact, queue and connection in both token styles, in the interface language', () => {
    const text = fillQuickAnswer('{{ms}}, {{firstName}}! {nome} ({numero}, {email}) — {{queue}} / {{connection}} #{{protocol}} {{other}}', ticket, 'pt-BR');
    expect(text).toMatch(/^(Bom dia|Boa tarde|Boa noite), Maria! Maria Clara \(5511988887777, maria@example\.com\) — Sales \/ Main line #\d{14}42 \{\{other\}\}$/);
    expect(fillQuickAnswer('{{ms}}', { ...ticket, queue: null, whatsapp: null }, 'en')).toMatch(/^Good (morning|afternoon|evening)$/);
    expect(fillQuickAnswer('Plain text', ticket, 'es')).toBe('Plain text');
  });
});

// A message's one-line preview (ticket list, notifications, kanban cards) drawn as the chat draws
// the message: WhatsApp's *bold* in bold, so a signed reply reads "**Ana**: …", not "*Ana*:". The
// rule is the chat bubble's formatBody (pages/tickets/chat/MessageBubble.tsx); line breaks fold into
// spaces in one line.
import type { ReactNode } from 'react';

const BOLD = /(\*[^*\n]+\*)/g;

export function formatWhatsAppBold(text: string): ReactNode[] {
  return text.split(BOLD).map((part, i) => (part.length > 2 && part.startsWith('*') && part.endsWith('*') ? <strong key={i} className="font-semibold">{part.slice(1, -1)}</strong> : part));
}

export function MessagePreview({ text }: { text: string | null | undefined }) {
  return text ? <>{formatWhatsAppBold(text)}</> : null;
}

// The type logos of the queue-integrations list (spec/03 §2): drawn here as small inline badges (a
// shape and the service's initials in its colour), so nothing is loaded from a CDN.
import type { IntegrationType } from '@zapdesk/sync';

const LOOK: Record<IntegrationType, { color: string; text: string; label: string }> = {
  dialogflow: { color: '#FF9800', text: 'DF', label: 'Dialogflow' },
  n8n: { color: '#EA4B71', text: 'n8n', label: 'n8n' },
  webhook: { color: '#4F46E5', text: 'WH', label: 'Webhook' },
  typebot: { color: '#0042DA', text: 'TB', label: 'Typebot' },
  flowbuilder: { color: '#059669', text: 'FB', label: 'Flowbuilder' },
};

export const integrationLabel = (type: IntegrationType) => LOOK[type].label;

export function IntegrationLogo({ type, size = 32 }: { type: IntegrationType; size?: number }) {
  const look = LOOK[type];
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label={look.label} className="shrink-0">
      {type === 'webhook' || type === 'n8n' ? (
        <rect x="1" y="1" width="30" height="30" rx="8" fill={look.color} />
      ) : type === 'dialogflow' ? (
        <path d="M16 1 30 9v14L16 31 2 23V9z" fill={look.color} />
      ) : (
        <circle cx="16" cy="16" r="15" fill={look.color} />
      )}
      <text x="16" y="20.5" textAnchor="middle" fontSize={look.text.length > 2 ? 10 : 12} fontWeight="700" fontFamily="system-ui, sans-serif" fill="#fff">
        {look.text}
      </text>
    </svg>
  );
}

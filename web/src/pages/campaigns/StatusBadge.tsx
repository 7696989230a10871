// A campaign's status as a badge (spec/03 §4 labels), shared by the list and the report.
import { useTranslation } from 'react-i18next';
import type { CampaignStatus } from '@zapdesk/sync';
import { Badge } from '../../ui/Table.tsx';

const STATUS_TONE: Record<CampaignStatus, 'neutral' | 'brand' | 'danger' | 'warning'> = {
  INATIVA: 'neutral',
  PROGRAMADA: 'warning',
  EM_ANDAMENTO: 'brand',
  CANCELADA: 'danger',
  FINALIZADA: 'neutral',
};

/** `deleting`: its delete was cut short (the list then offers only to delete it again). */
export function StatusBadge({ status, deleting = false }: { status: CampaignStatus; deleting?: boolean }) {
  const { t } = useTranslation();
  if (deleting) return <Badge tone="danger">{t('campaigns.beingDeleted')}</Badge>;
  return <Badge tone={STATUS_TONE[status]}>{t(`campaigns.statuses.${status}`)}</Badge>;
}

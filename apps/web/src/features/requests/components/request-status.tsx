import type { RequestStatus } from '@bogwan/contracts';
import { mdiCancel, mdiCheckCircle, mdiClockOutline, mdiCloseCircle, mdiTimerSandComplete } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { Tag } from '../../../components/tag';
import { k, type TranslationKey } from '../../../i18n/keys';

const LOOK: Record<RequestStatus, { label: TranslationKey; icon: string; color: 'default' | 'success' | 'warning' | 'error' | 'info' }> = {
  PENDING: { label: k('request_status_pending'), icon: mdiClockOutline, color: 'warning' },
  APPROVED: { label: k('request_status_approved'), icon: mdiCheckCircle, color: 'success' },
  REJECTED: { label: k('request_status_rejected'), icon: mdiCloseCircle, color: 'error' },
  CANCELED: { label: k('request_status_canceled'), icon: mdiCancel, color: 'default' },
  EXPIRED: { label: k('request_status_expired'), icon: mdiTimerSandComplete, color: 'default' },
};

/** A request's status with its icon and label (approval pending, approval complete, approval rejected, …). */
export function RequestStatusChip({ status }: { status: RequestStatus }) {
  const { t } = useTranslation();
  const look = LOOK[status];
  return <Tag variant="outlined" color={look.color} icon={<MdiIcon path={look.icon} fontSize="small" />} label={t(look.label)} data-status={status} />;
}

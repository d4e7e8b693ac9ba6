import type { Role, UserStatus } from '@bogwan/contracts';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { ROLE_ICONS, ROLE_LABELS } from '../../../components/user-avatar';
import { k } from '../../../i18n/keys';

export const STATUS_LABELS = {
  ACTIVE: k('status_active'),
  BLOCK: k('status_block'),
  PENDING: k('status_pending'),
} satisfies Record<UserStatus, string>;

const STATUS_COLOURS = { ACTIVE: 'success', BLOCK: 'error', PENDING: 'warning' } as const;

/** The status chip of an account row; clickable (opens the change dialog) when `onClick` is given. */
export function StatusChip({ status, onClick }: { status: UserStatus; onClick?: () => void }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLOURS[status]}
      label={t(STATUS_LABELS[status])}
      onClick={onClick}
      aria-label={onClick ? t('change_status_of', { status: t(STATUS_LABELS[status]) }) : undefined}
      data-status={status}
    />
  );
}

/** The role chip, with the role's icon; clickable when `onClick` is given. */
export function RoleChip({ role, onClick }: { role: Role; onClick?: () => void }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      icon={<MdiIcon path={ROLE_ICONS[role]} fontSize="small" />}
      color={role === 'USER' ? 'default' : 'primary'}
      variant={role === 'MASTER' ? 'filled' : 'outlined'}
      label={t(ROLE_LABELS[role])}
      onClick={onClick}
      aria-label={onClick ? t('change_role_of', { role: t(ROLE_LABELS[role]) }) : undefined}
      data-role={role}
    />
  );
}

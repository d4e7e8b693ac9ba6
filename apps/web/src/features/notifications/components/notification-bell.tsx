import { mdiBellOutline } from '@mdi/js';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Deferred } from '../../../components/deferred';
import { MdiIcon } from '../../../components/mdi-icon';
import { useUnreadNotifications } from '../api/get-notifications';

// The panel's code arrives when it is first opened.
const NotificationPanel = lazy(() => import('./notification-panel').then((m) => ({ default: m.NotificationPanel })));

export interface NotificationBellProps {
  userId: string;
  /** Opens the full list (Settings → Notification). */
  onShowAll: () => void;
}

/** The top bar's bell: unread count, the unread list (click marks one read) and 'all read'. */
export function NotificationBell({ userId, onShowAll }: NotificationBellProps) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const unread = useUnreadNotifications(userId);
  const count = unread.data?.length ?? 0;

  return (
    <>
      <LazyTooltip title={t('notifications')}>
        <IconButton
          aria-label={count > 0 ? t('notifications_unread', { n: count > 99 ? '99+' : count }) : t('notifications')}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge badgeContent={count} color="error" max={99} data-testid="notification-badge" data-count={count}>
            <MdiIcon path={mdiBellOutline} />
          </Badge>
        </IconButton>
      </LazyTooltip>
      <Deferred open={anchor !== null}>
        <NotificationPanel userId={userId} anchor={anchor} onClose={() => setAnchor(null)} onShowAll={onShowAll} />
      </Deferred>
    </>
  );
}

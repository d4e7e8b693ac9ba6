import { NOTIFICATION_PANEL_WIDTH } from '@bogwan/contracts';
import { mdiAlertCircleOutline, mdiBellOutline, mdiCheckAll, mdiInformationOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { formatDateTime, formatRelative } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useUnreadNotifications } from '../api/get-notifications';
import { useReadAllNotifications } from '../api/read-all-notifications';
import { useReadNotification } from '../api/read-notification';
import { NotificationMessage } from './notification-message';

/** List height of the panel from the spec. */
const LIST_MIN_HEIGHT = 200;
const LIST_MAX_HEIGHT = 330;

export interface NotificationPanelProps {
  userId: string;
  anchor: HTMLElement | null;
  onClose: () => void;
  /** Opens the full list (Settings → Notification). */
  onShowAll: () => void;
}

/** The bell's panel: the unread list (click marks one read) and 'all read'; its code loads when first opened. */
export function NotificationPanel({ userId, anchor, onClose, onShowAll }: NotificationPanelProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const unread = useUnreadNotifications(userId);
  const readOne = useReadNotification(userId);
  const readAll = useReadAllNotifications(userId);
  const items = unread.data ?? [];
  const count = items.length;
  const failed = (error: unknown) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');

  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': 'notification-panel-title',
          sx: { width: NOTIFICATION_PANEL_WIDTH, maxWidth: 'calc(100vw - 16px)', mt: 0.5 },
        } as object,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, pl: 2, pr: 1, py: 1 }}>
        <Typography id="notification-panel-title" variant="subtitle1" component="h2" sx={{ fontWeight: 700, flexGrow: 1 }}>
          {t('notifications')}
        </Typography>
        <Button
          size="small"
          startIcon={<MdiIcon path={mdiCheckAll} fontSize="small" />}
          disabled={count === 0 || readAll.isPending}
          onClick={() => readAll.mutate(undefined, { onError: failed })}
        >
          {t('notification_read_all')}
        </Button>
      </Box>
      <Divider />
      <Box sx={{ minHeight: LIST_MIN_HEIGHT, maxHeight: LIST_MAX_HEIGHT, overflowY: 'auto' }}>
        {unread.isPending ? (
          <Box sx={{ display: 'grid', placeItems: 'center', height: LIST_MIN_HEIGHT }}>
            <CircularProgress size={24} aria-label={t('loading')} />
          </Box>
        ) : unread.isError ? (
          <Typography variant="body2" sx={{ p: 3, textAlign: 'center', color: 'error.main' }}>
            {t('request_error_message')}
          </Typography>
        ) : count === 0 ? (
          <Box sx={{ display: 'grid', placeItems: 'center', alignContent: 'center', gap: 1, height: LIST_MIN_HEIGHT, color: 'text.secondary' }}>
            <MdiIcon path={mdiBellOutline} sx={{ fontSize: 36, opacity: 0.5 }} />
            <Typography variant="body2">{t('notifications_empty')}</Typography>
          </Box>
        ) : (
          <List disablePadding aria-label={t('notifications')}>
            {items.map((item) => (
              <ListItemButton
                key={item._id}
                divider
                alignItems="flex-start"
                data-testid="notification-item"
                title={t('notification_mark_read')}
                onClick={() => readOne.mutate(item._id, { onError: failed })}
                sx={{ gap: 1.5, py: 1.25 }}
              >
                <MdiIcon
                  path={item.level >= 1 ? mdiAlertCircleOutline : mdiInformationOutline}
                  fontSize="small"
                  color={item.level >= 1 ? 'warning' : 'action'}
                  titleAccess={item.level >= 1 ? t('notification_alert') : undefined}
                  sx={{ mt: 0.25 }}
                />
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" sx={{ wordBreak: 'keep-all', overflowWrap: 'anywhere' }}>
                    <NotificationMessage note={item} />
                  </Typography>
                  <Typography variant="caption" sx={{ color: 'text.secondary' }} title={formatDateTime(item.createdAt, locale)}>
                    {formatRelative(item.createdAt, locale)}
                  </Typography>
                </Box>
              </ListItemButton>
            ))}
          </List>
        )}
      </Box>
      <Divider />
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 0.5 }}>
        <Button
          size="small"
          onClick={() => {
            onClose();
            onShowAll();
          }}
        >
          {t('notification_show_all')}
        </Button>
      </Box>
    </Popover>
  );
}

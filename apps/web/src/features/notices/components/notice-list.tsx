import type { Notice } from '@bogwan/contracts';
import { mdiBullhornOutline, mdiDeleteOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useNotices } from '../api/get-notices';
import { useDeleteNotice } from '../api/delete-notice';
import { isNewNotice } from '../lib/notice-age';

/** The notices, newest first; `canDelete` (administrators) adds a delete action with confirmation. */
export function NoticeList({ enabled, canDelete }: { enabled: boolean; canDelete: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notices = useNotices(enabled);
  const remove = useDeleteNotice();
  const [pending, setPending] = useState<Notice | null>(null);

  if (notices.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
        <CircularProgress size={24} aria-label={t('loading')} />
      </Box>
    );
  }
  if (notices.isError) {
    return (
      <Typography variant="body2" sx={{ p: 3, textAlign: 'center', color: 'error.main' }}>
        {t('request_error_message')}
      </Typography>
    );
  }
  if (notices.data.length === 0) {
    return (
      <Box sx={{ p: 4, textAlign: 'center', color: 'text.secondary' }}>
        <MdiIcon path={mdiBullhornOutline} sx={{ fontSize: 40, opacity: 0.5, mb: 1 }} />
        <Typography variant="body2">{t('no_notices')}</Typography>
      </Box>
    );
  }

  return (
    <>
      <Box component="ul" aria-label={t('notice')} sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {notices.data.map((notice) => (
          <Box component="li" key={notice._id} data-testid="notice-item" sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
            <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
              <Typography variant="subtitle2" component="h3" sx={{ flexGrow: 1, minWidth: 0, wordBreak: 'keep-all', overflowWrap: 'anywhere', pt: 0.25 }}>
                {isNewNotice(notice.createdAt) && (
                  <Chip
                    label={t('notice_new')}
                    size="small"
                    color="error"
                    sx={{ height: 20, fontSize: 11, fontWeight: 700, mr: 0.75, verticalAlign: 'text-bottom' }}
                  />
                )}
                {notice.title}
              </Typography>
              {canDelete && (
                <Tooltip title={t('delete')}>
                  <IconButton size="small" aria-label={`${t('delete')}: ${notice.title}`} onClick={() => setPending(notice)} sx={{ mt: -0.5, mr: -1 }}>
                    <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Box>
            {/* Plain text: whatever the content holds is shown, never interpreted. */}
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'keep-all', overflowWrap: 'anywhere', mt: 0.5 }}>
              {notice.content}
            </Typography>
            <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.75 }}>
              {notice.creator} · {formatDateTime(notice.createdAt, locale)}
            </Typography>
          </Box>
        ))}
      </Box>
      <Dialog open={pending !== null} onClose={() => setPending(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{t('notice_delete_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ wordBreak: 'break-word' }}>{t('notice_delete_confirm', { title: pending?.title ?? '' })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPending(null)}>{t('cancel')}</Button>
          <Button
            variant="contained"
            color="error"
            disabled={remove.isPending}
            autoFocus
            onClick={() => {
              if (!pending) return;
              remove.mutate(pending._id, {
                onSuccess: () => {
                  setPending(null);
                  notify(t('notice_deleted'));
                },
                onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
              });
            }}
          >
            {t('delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

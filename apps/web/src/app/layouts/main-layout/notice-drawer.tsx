import { NOTICE_DRAWER_WIDTH } from '@bogwan/contracts';
import { mdiClose } from '@mdi/js';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { useAuth } from '../../../state/auth';
import { setPanel, usePanels } from '../../../state/ui';

// The drawer's content is drawn only while it is open: its code loads then.
const NoticeForm = lazy(() => import('../../../features/notices/components/notice-form').then((m) => ({ default: m.NoticeForm })));
const NoticeList = lazy(() => import('../../../features/notices/components/notice-list').then((m) => ({ default: m.NoticeList })));

/** Right-hand drawer with the notices; administrators (roleLevel above 1) also write and delete them. */
export function NoticeDrawer() {
  const { t } = useTranslation();
  const { noticeOpen } = usePanels();
  const isAdmin = (useAuth()?.user.roleLevel ?? 1) > 1;
  const close = () => setPanel({ noticeOpen: false });

  return (
    <Drawer
      anchor="right"
      open={noticeOpen}
      onClose={close}
      slotProps={{ paper: { sx: { width: NOTICE_DRAWER_WIDTH, maxWidth: '100vw' }, 'aria-labelledby': 'notice-drawer-title' } as object }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', height: 64, px: 2, flexShrink: 0 }}>
        <Typography id="notice-drawer-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('notice')}
        </Typography>
        <IconButton edge="end" aria-label={t('close')} onClick={close}>
          <MdiIcon path={mdiClose} />
        </IconButton>
      </Box>
      <Divider />
      <Box sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto' }}>
        <Suspense fallback={null}>
          {isAdmin && (
            <>
              <NoticeForm />
              <Divider />
            </>
          )}
          <NoticeList enabled={noticeOpen} canDelete={isAdmin} />
        </Suspense>
      </Box>
    </Drawer>
  );
}

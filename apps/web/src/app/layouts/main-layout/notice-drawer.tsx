import { NOTICE_DRAWER_WIDTH } from '@bogwan/contracts';
import { mdiClose } from '@mdi/js';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { NoticeForm } from '../../../features/notices/components/notice-form';
import { NoticeList } from '../../../features/notices/components/notice-list';
import { useAuth } from '../../../state/auth';
import { setPanel, usePanels } from '../../../state/ui';

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
        {isAdmin && (
          <>
            <NoticeForm />
            <Divider />
          </>
        )}
        <NoticeList enabled={noticeOpen} canDelete={isAdmin} />
      </Box>
    </Drawer>
  );
}

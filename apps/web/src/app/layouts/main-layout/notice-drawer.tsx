import { NOTICE_DRAWER_WIDTH } from '@bogwan/contracts';
import { mdiBullhornOutline, mdiClose } from '@mdi/js';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { setPanel, usePanels } from '../../../state/ui';

/** Right-hand drawer with the notices. Notices arrive with their own feature; until then it is empty. */
export function NoticeDrawer() {
  const { t } = useTranslation();
  const { noticeOpen } = usePanels();
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
      <Box sx={{ p: 4, textAlign: 'center', color: 'text.secondary' }}>
        <MdiIcon path={mdiBullhornOutline} sx={{ fontSize: 40, opacity: 0.5, mb: 1 }} />
        <Typography variant="body2">{t('no_notices')}</Typography>
      </Box>
    </Drawer>
  );
}

import { mdiAccountRemoveOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { DeleteAccountDialog } from './delete-account-dialog';

/** Settings → Delete account: what it means, and the button that opens the two-step dialog. */
export function DeleteAccountSection() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3, wordBreak: 'keep-all' }}>
        {t('delete_account_intro')}
      </Typography>
      <Button variant="outlined" color="error" startIcon={<MdiIcon path={mdiAccountRemoveOutline} />} onClick={() => setOpen(true)}>
        {t('settings_delete')}
      </Button>
      <DeleteAccountDialog open={open} onClose={() => setOpen(false)} />
    </Box>
  );
}

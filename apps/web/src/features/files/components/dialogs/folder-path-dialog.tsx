import { mdiFolderPlusOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FolderPickerProps } from '../../../../components/folder-picker';
import { MdiIcon } from '../../../../components/mdi-icon';
import { CreateFolderDialog } from './create-folder-dialog';
import { FolderTree } from '../tree/folder-tree';

/** The folder path selector: pick a folder from the tree, or create one inside the picked folder. */
export function FolderPathDialog({ open, onPick, onClose }: FolderPickerProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    if (open) setPicked(null);
  }, [open]);

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="folder-path-title">
      <DialogTitle id="folder-path-title">{t('folder_path_select')}</DialogTitle>
      <DialogContent>
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, height: 320, overflow: 'auto' }}>
          <FolderTree label={t('folder_path_select')} selectedPath={picked} revealPath={picked} onSelect={setPicked} />
        </Box>
        <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }} noWrap>
          {t('selected_folder')}: {picked ?? '—'}
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button startIcon={<MdiIcon path={mdiFolderPlusOutline} />} onClick={() => setCreating(true)} sx={{ mr: 'auto' }}>
          {picked ? t('create_folder') : t('create_root_folder')}
        </Button>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" disabled={!picked} onClick={() => picked && onPick(picked)}>
          {t('select')}
        </Button>
      </DialogActions>
      <CreateFolderDialog open={creating} parentPath={picked ?? '/'} onClose={() => setCreating(false)} onCreated={setPicked} />
    </Dialog>
  );
}

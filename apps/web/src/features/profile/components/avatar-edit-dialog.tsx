import type { User } from '@bogwan/contracts';
import { mdiDeleteOutline, mdiDotsVertical, mdiImageOutline } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { UserAvatar } from '../../../components/user-avatar';
import { messageText } from '../../../i18n/keys';
import { useDeleteAvatar, useUploadAvatar } from '../api/update-profile';
import { avatarFileProblem } from '../lib/avatar-file';
import { ConfirmDialog } from '../../../components/confirm-dialog';

/** The avatar edit dialog: choose an image file, or delete the image through a context menu. */
export function AvatarEditDialog({ open, user, onClose }: { open: boolean; user: User; onClose: () => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();
  const remove = useDeleteAvatar();
  const [problem, setProblem] = useState<string | null>(null);
  const [menu, setMenu] = useState<{ top: number; left: number } | HTMLElement | null>(null);
  const busy = upload.isPending || remove.isPending;

  const failed = (error: unknown) => setProblem(error instanceof ApiError ? error.messageKey : 'request_error_message');

  const choose = (file: File | undefined) => {
    if (!file) return;
    const rule = avatarFileProblem(file);
    setProblem(rule);
    if (rule) return;
    upload.mutate({ _id: user._id, file }, { onSuccess: () => notify(t('profile_avatar_saved')), onError: failed });
  };

  // Deleting the image is asked first.
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const askDelete = () => {
    setMenu(null);
    setConfirmingDelete(true);
  };
  const deleteImage = () => {
    setConfirmingDelete(false);
    setProblem(null);
    remove.mutate(user._id, { onSuccess: () => notify(t('profile_avatar_deleted')), onError: failed });
  };

  const close = () => {
    setProblem(null);
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="avatar-edit-title">
      <DialogTitle id="avatar-edit-title">{t('profile_avatar_edit')}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, pt: 1 }}>
          <Box
            data-testid="avatar-preview"
            onContextMenu={(event) => {
              event.preventDefault();
              setMenu({ top: event.clientY, left: event.clientX });
            }}
            sx={{ position: 'relative' }}
          >
            <UserAvatar name={user.name} role={user.role} profileImage={user.profileImage} size={144} />
            <IconButton
              aria-label={t('profile_avatar_menu')}
              aria-haspopup="menu"
              onClick={(event) => setMenu(event.currentTarget)}
              size="small"
              sx={{ position: 'absolute', top: 0, right: -8, bgcolor: 'background.paper', boxShadow: 1, '&:hover': { bgcolor: 'background.paper' } }}
            >
              <MdiIcon path={mdiDotsVertical} fontSize="small" />
            </IconButton>
          </Box>
          <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center', wordBreak: 'keep-all' }}>
            {t('profile_avatar_hint')}
          </Typography>
          {problem && (
            <Alert severity="error" sx={{ width: '100%' }}>
              {messageText(t, problem)}
            </Alert>
          )}
          <input
            ref={input}
            type="file"
            accept="image/*"
            hidden
            data-testid="avatar-input"
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </Box>
        <Menu
          open={menu !== null}
          onClose={() => setMenu(null)}
          anchorEl={menu instanceof HTMLElement ? menu : null}
          anchorReference={menu instanceof HTMLElement ? 'anchorEl' : 'anchorPosition'}
          anchorPosition={menu && !(menu instanceof HTMLElement) ? menu : undefined}
        >
          <MenuItem
            onClick={() => {
              setMenu(null);
              input.current?.click();
            }}
          >
            <ListItemIcon>
              <MdiIcon path={mdiImageOutline} fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('profile_avatar_choose')}</ListItemText>
          </MenuItem>
          <MenuItem onClick={askDelete} disabled={!user.profileImage}>
            <ListItemIcon>
              <MdiIcon path={mdiDeleteOutline} fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('profile_avatar_delete')}</ListItemText>
          </MenuItem>
        </Menu>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={close}>{t('close')}</Button>
        <Button variant="contained" startIcon={<MdiIcon path={mdiImageOutline} />} loading={busy} onClick={() => input.current?.click()}>
          {t('profile_avatar_choose')}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={confirmingDelete}
        title={t('profile_avatar_delete')}
        message={t('profile_avatar_delete_confirm')}
        confirmLabel={t('profile_avatar_delete')}
        danger
        onConfirm={deleteImage}
        onClose={() => setConfirmingDelete(false)}
      />
    </Dialog>
  );
}

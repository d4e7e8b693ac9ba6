import { NAME_MAX_LENGTH, checkName } from '@bogwan/contracts';
import { mdiPencil } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { ROLE_LABELS, UserAvatar } from '../../../components/user-avatar';
import { messageText } from '../../../i18n/keys';
import { useAuth } from '../../../state/auth';
import { useUpdateOwnName } from '../api/update-profile';
import { AvatarEditDialog } from './avatar-edit-dialog';
import { LanguageSelect } from './language-select';

/** Settings → Profile: avatar (with its edit dialog), name (saved only when changed), email read-only. */
export function ProfileSection() {
  const { t } = useTranslation();
  const auth = useAuth();
  const update = useUpdateOwnName();
  const [avatarOpen, setAvatarOpen] = useState(false);
  const savedName = auth?.user.name ?? '';
  const [name, setName] = useState(savedName);
  useEffect(() => setName(savedName), [savedName]);
  if (!auth) return null;
  const { user } = auth;

  const rule = checkName(name);
  const changed = name.trim() !== savedName;
  const serverKey = update.error instanceof ApiError ? update.error.messageKey : update.error ? 'request_error_message' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed || rule || update.isPending) return;
    update.mutate({ _id: user._id, name: name.trim() }, { onSuccess: () => notify(t('profile_name_saved')) });
  };

  return (
    <Box sx={{ maxWidth: 560 }}>
      <Stack direction="row" spacing={3} sx={{ alignItems: 'center', mb: 4 }}>
        <Box sx={{ position: 'relative' }}>
          <UserAvatar name={user.name} role={user.role} profileImage={user.profileImage} size={96} />
          <IconButton
            aria-label={t('profile_avatar_edit')}
            onClick={() => setAvatarOpen(true)}
            size="small"
            sx={{ position: 'absolute', bottom: -4, left: -4, bgcolor: 'primary.main', color: 'primary.contrastText', '&:hover': { bgcolor: 'primary.dark' } }}
          >
            <MdiIcon path={mdiPencil} fontSize="small" />
          </IconButton>
        </Box>
        <div>
          <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
            {user.name}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
            {user.email}
          </Typography>
          <Chip size="small" label={t(ROLE_LABELS[user.role])} />
        </div>
      </Stack>
      <Box component="form" noValidate onSubmit={submit}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label={t('name')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              if (update.error) update.reset();
            }}
            error={Boolean((changed && rule) || serverKey)}
            helperText={changed && rule ? t(rule) : serverKey ? messageText(t, serverKey) : ' '}
            fullWidth
            slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
          />
          <Button type="submit" variant="contained" disabled={!changed || Boolean(rule)} loading={update.isPending} sx={{ mt: 1, flexShrink: 0 }}>
            {t('save')}
          </Button>
        </Stack>
      </Box>
      <TextField
        label={t('email')}
        value={user.email}
        fullWidth
        helperText={t('profile_email_read_only')}
        slotProps={{ htmlInput: { readOnly: true } }}
        sx={{ mt: 1 }}
      />
      <LanguageSelect language={user.language ?? 'ko'} />
      <AvatarEditDialog open={avatarOpen} user={user} onClose={() => setAvatarOpen(false)} />
    </Box>
  );
}

import {
  SHARE_DOWNLOAD_LIMIT_MAX,
  SHARE_PASSWORD_MAX_LENGTH,
  SHARE_PASSWORD_MIN_LENGTH,
  SHARE_SCOPES,
  type GroupInfo,
  type Profile,
  type ShareLink,
  type ShareScope,
} from '@bogwan/contracts';
import { mdiContentCopy } from '@mdi/js';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useGroupInfo, useProfiles } from '../api/find-recipients';
import { useSaveShare } from '../api/save-share';
import { copyToClipboard } from '../../../components/copy-button';
import { dayOf, endOfDay, shareAddress } from '../lib/share-url';
import { SCOPE_LABELS } from './share-scope-labels';

export interface ShareDialogProps {
  open: boolean;
  /** The item to make a link for (create), or the link to change (edit). */
  item: { path: string; name: string } | null;
  link?: ShareLink | null;
  onClose: () => void;
}

interface Recipient {
  _id: string;
  name: string;
  email: string;
}

/** Makes or changes a share link: scope, recipients, expiry, password, download limit, previews; then shows the link to copy. */
export function ShareDialog({ open, item, link, onClose }: ShareDialogProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const save = useSaveShare();
  const [scope, setScope] = useState<ShareScope>('anyone');
  const [users, setUsers] = useState<Recipient[]>([]);
  const [groups, setGroups] = useState<GroupInfo[]>([]);
  const [keyword, setKeyword] = useState('');
  const [expiry, setExpiry] = useState('');
  const [usePassword, setUsePassword] = useState(false);
  const [password, setPassword] = useState('');
  const [limit, setLimit] = useState('');
  const [preview, setPreview] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ShareLink | null>(null);
  const profiles = useProfiles(keyword.trim(), open && scope === 'specific');
  const groupInfo = useGroupInfo(open && scope === 'specific');

  useEffect(() => {
    if (!open) return;
    setScope(link?.scope ?? 'anyone');
    setUsers(link?.users ?? []);
    setGroups(link ? link.groups.map((g) => ({ ...g, description: '', userCount: 0 })) : []);
    setExpiry(dayOf(link?.expiresAt ?? null));
    setUsePassword(link?.hasPassword ?? false);
    setPassword('');
    setLimit(link?.downloadLimit ? String(link.downloadLimit) : '');
    setPreview(link?.preview ?? true);
    setError(null);
    setCreated(null);
  }, [open, link]);

  const limitValue = limit === '' ? null : Number(limit);
  const limitValid = limitValue === null || (Number.isInteger(limitValue) && limitValue >= 1 && limitValue <= SHARE_DOWNLOAD_LIMIT_MAX);
  const keepsPassword = Boolean(link?.hasPassword) && usePassword && password === '';
  const passwordValid = !usePassword || keepsPassword || (password.length >= SHARE_PASSWORD_MIN_LENGTH && password.length <= SHARE_PASSWORD_MAX_LENGTH);
  const recipientsValid = scope !== 'specific' || users.length + groups.length > 0;
  const canSave = limitValid && passwordValid && recipientsValid && !save.isPending;

  const submit = () => {
    if (!canSave) return;
    const rules = {
      scope,
      users: users.map((u) => u._id),
      groups: groups.map((g) => g._id),
      expiresAt: expiry ? endOfDay(expiry) : null,
      downloadLimit: limitValue,
      preview,
      ...(keepsPassword ? {} : { password: usePassword ? password : null }),
    };
    save.mutate(link ? { id: link._id, update: rules } : { create: { ...rules, path: item!.path } }, {
      onSuccess: (saved) => {
        if (link) {
          notify(t('share_saved_message'), 'success');
          onClose();
        } else {
          setCreated(saved);
        }
      },
      onError: (failure) => setError(messageText(t, failure instanceof ApiError ? failure.messageKey : null)),
    });
  };

  const address = created ? shareAddress(created.key, locale) : '';
  const title = link ? t('share_edit_title') : t('share_create_title');

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>
        {title}
        <Typography variant="body2" component="div" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
          {link?.path ?? item?.path ?? ''}
        </Typography>
      </DialogTitle>
      <DialogContent>
        {created ? (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">{t('share_created_message')}</Typography>
            <TextField
              label={t('share_link')}
              value={address}
              fullWidth
              slotProps={{
                htmlInput: { readOnly: true, 'data-testid': 'share-link-address' },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Tooltip title={t('share_copy_link')}>
                        <IconButton
                          aria-label={t('share_copy_link')}
                          onClick={() => void copyToClipboard(address).then(() => notify(t('share_copied_message'), 'success'))}
                        >
                          <MdiIcon path={mdiContentCopy} fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </InputAdornment>
                  ),
                },
              }}
            />
          </Stack>
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField select label={t('share_scope')} value={scope} onChange={(event) => setScope(event.target.value as ShareScope)}>
              {SHARE_SCOPES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(SCOPE_LABELS[value])}
                </MenuItem>
              ))}
            </TextField>
            {scope === 'specific' && (
              <>
                <Autocomplete<Recipient, true>
                  multiple
                  options={(profiles.data ?? []).map((p: Profile) => ({ _id: p._id, name: p.name, email: p.email }))}
                  value={users}
                  onChange={(_event, value) => setUsers(value)}
                  inputValue={keyword}
                  onInputChange={(_event, value) => setKeyword(value)}
                  filterOptions={(options) => options}
                  isOptionEqualToValue={(a, b) => a._id === b._id}
                  getOptionLabel={(option) => `${option.name} (${option.email})`}
                  renderInput={(params) => <TextField {...params} label={t('share_users')} placeholder={t('share_users_hint')} />}
                />
                <Autocomplete<GroupInfo, true>
                  multiple
                  options={groupInfo.data ?? []}
                  value={groups}
                  onChange={(_event, value) => setGroups(value)}
                  isOptionEqualToValue={(a, b) => a._id === b._id}
                  getOptionLabel={(option) => option.name}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={t('share_groups')}
                      error={!recipientsValid}
                      helperText={recipientsValid ? undefined : t('share_recipients_required')}
                    />
                  )}
                />
              </>
            )}
            <TextField
              type="date"
              label={t('share_expires_at')}
              value={expiry}
              onChange={(event) => setExpiry(event.target.value)}
              helperText={t('share_expires_at_hint')}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: dayOf(new Date().toISOString()) } }}
            />
            <FormControlLabel
              control={<Checkbox checked={usePassword} onChange={(event) => setUsePassword(event.target.checked)} />}
              label={t('share_use_password')}
            />
            {usePassword && (
              <TextField
                type="password"
                label={t('share_password')}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                error={!passwordValid}
                helperText={link?.hasPassword ? t('share_password_keep_hint') : t('share_password_rule')}
                autoComplete="new-password"
                slotProps={{ htmlInput: { maxLength: SHARE_PASSWORD_MAX_LENGTH } }}
              />
            )}
            <TextField
              type="number"
              label={t('share_download_limit')}
              value={limit}
              onChange={(event) => setLimit(event.target.value)}
              error={!limitValid}
              helperText={t('share_download_limit_hint')}
              slotProps={{ htmlInput: { min: 1, max: SHARE_DOWNLOAD_LIMIT_MAX } }}
            />
            <FormControlLabel
              control={
                <Switch checked={preview && limitValue === null} disabled={limitValue !== null} onChange={(event) => setPreview(event.target.checked)} />
              }
              label={t('share_allow_preview')}
            />
            {error && (
              <Typography role="alert" variant="body2" sx={{ color: 'error.main' }}>
                {error}
              </Typography>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {created ? (
          <Button variant="contained" onClick={onClose}>
            {t('close')}
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>{t('cancel')}</Button>
            <Button variant="contained" onClick={submit} disabled={!canSave}>
              {link ? t('save') : t('share_create')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

import { NAME_MAX_LENGTH, checkName, type Account } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { UserAvatar } from '../../../components/user-avatar';
import { messageText } from '../../../i18n/keys';
import { useGroupInfo } from '../../../api/get-groups';
import { FolderAccessEditor } from '../../../components/folder-access-table';
import { useAccountPermissions } from '../api/get-account-permissions';
import { useUpdateAccount } from '../api/update-account';
import { RoleChip, StatusChip } from './account-chips';

type EditTab = 'general' | 'group' | 'permission';

interface EditAccountDialogProps {
  account: Account | null;
  /** The caller may change this account (role rules); otherwise the dialog only shows it. */
  editable: boolean;
  /** The caller may change this account's groups (never their own). */
  groupsEditable: boolean;
  onClose: () => void;
}

/** Edit user: general (only the name editable), group membership, and access per root folder. */
export function EditAccountDialog({ account, editable, groupsEditable, onClose }: EditAccountDialogProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<EditTab>('general');
  useEffect(() => {
    if (account) setTab('general');
  }, [account?._id]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Dialog open={account !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="edit-account-title">
      <DialogTitle id="edit-account-title">{t('account_edit')}</DialogTitle>
      {account && (
        <>
          <Box sx={{ px: 3 }}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
              <UserAvatar name={account.name} email={account.email} role={account.role} profileImage={account.profileImage} size={44} />
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }} noWrap>
                  {account.name}
                </Typography>
                <Typography variant="body2" sx={{ color: 'text.secondary' }} noWrap>
                  {account.email}
                </Typography>
              </Box>
            </Stack>
            <Tabs value={tab} onChange={(_event, value: EditTab) => setTab(value)} sx={{ borderBottom: 1, borderColor: 'divider' }}>
              <Tab value="general" label={t('general_tab')} />
              <Tab value="group" label={t('group_tab')} />
              <Tab value="permission" label={t('permission_tab')} />
            </Tabs>
          </Box>
          <DialogContent sx={{ minHeight: 360 }}>
            {tab === 'general' && <GeneralTab account={account} editable={editable} />}
            {tab === 'group' && <GroupTab account={account} editable={groupsEditable} />}
            {tab === 'permission' && <PermissionTab account={account} editable={editable} />}
          </DialogContent>
        </>
      )}
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function serverMessage(error: unknown): string | null {
  if (!error) return null;
  return error instanceof ApiError ? error.messageKey : 'request_error_message';
}

function GeneralTab({ account, editable }: { account: Account; editable: boolean }) {
  const { t } = useTranslation();
  const update = useUpdateAccount();
  const [name, setName] = useState(account.name);
  useEffect(() => setName(account.name), [account.name]);
  const rule = checkName(name);
  const changed = name.trim() !== account.name;
  const failure = serverMessage(update.error);

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!changed || rule) return;
        update.mutate({ _id: account._id, name: name.trim() }, { onSuccess: () => notify(t('account_saved')) });
      }}
      sx={{ maxWidth: 480, pt: 1 }}
    >
      <Stack spacing={2}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label={t('name')}
            value={name}
            disabled={!editable}
            onChange={(event) => setName(event.target.value)}
            error={changed && Boolean(rule)}
            helperText={changed && rule ? t(rule) : ' '}
            fullWidth
            slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
          />
          {editable && (
            <Button type="submit" variant="contained" disabled={!changed || Boolean(rule)} loading={update.isPending} sx={{ mt: 1, flexShrink: 0 }}>
              {t('save')}
            </Button>
          )}
        </Stack>
        <TextField label={t('email')} value={account.email} slotProps={{ htmlInput: { readOnly: true } }} />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" sx={{ color: 'text.secondary', minWidth: 64 }}>
            {t('column_status')}
          </Typography>
          <StatusChip status={account.status} />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" sx={{ color: 'text.secondary', minWidth: 64 }}>
            {t('column_role')}
          </Typography>
          <RoleChip role={account.role} />
        </Stack>
        {failure && <Alert severity="error">{messageText(t, failure)}</Alert>}
      </Stack>
    </Box>
  );
}

function GroupTab({ account, editable }: { account: Account; editable: boolean }) {
  const { t } = useTranslation();
  const groups = useGroupInfo();
  const update = useUpdateAccount();
  const saved = account.groups.map((group) => group._id);
  const [chosen, setChosen] = useState<string[]>(saved);
  const savedKey = [...saved].sort().join();
  useEffect(() => setChosen(savedKey ? savedKey.split(',') : []), [savedKey]);
  const changed = [...chosen].sort().join() !== savedKey;

  if (groups.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (groups.isError) return <Alert severity="error">{messageText(t, serverMessage(groups.error))}</Alert>;

  return (
    <Box sx={{ pt: 1 }}>
      {groups.data.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('group_empty')}
        </Typography>
      ) : (
        <FormGroup aria-label={t('group_tab')}>
          {groups.data.map((group) => (
            <FormControlLabel
              key={group._id}
              disabled={!editable}
              control={
                <Checkbox
                  checked={chosen.includes(group._id)}
                  onChange={(event) => setChosen((current) => (event.target.checked ? [...current, group._id] : current.filter((id) => id !== group._id)))}
                />
              }
              label={
                <span>
                  {group.name}
                  {group.description && (
                    <Typography component="span" variant="body2" sx={{ color: 'text.secondary', ml: 1 }}>
                      {group.description}
                    </Typography>
                  )}
                </span>
              }
            />
          ))}
        </FormGroup>
      )}
      {serverMessage(update.error) && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {messageText(t, serverMessage(update.error))}
        </Alert>
      )}
      {editable && (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
          <Button disabled={!changed} onClick={() => setChosen(saved)}>
            {t('reset')}
          </Button>
          <Button
            variant="contained"
            disabled={!changed}
            loading={update.isPending}
            onClick={() => update.mutate({ _id: account._id, groups: chosen }, { onSuccess: () => notify(t('account_saved')) })}
          >
            {t('save')}
          </Button>
        </Stack>
      )}
    </Box>
  );
}

function PermissionTab({ account, editable }: { account: Account; editable: boolean }) {
  const { t } = useTranslation();
  const permissions = useAccountPermissions(account._id, true);
  // Folder entries are for USERs: an ADMIN holds the admin defaults everywhere, a MASTER everything.
  const note = account.role === 'MASTER' ? t('permission_master_note') : account.role === 'ADMIN' ? t('permission_admin_note') : undefined;
  return (
    <Box sx={{ pt: 1 }}>
      <FolderAccessEditor
        entity={account._id}
        kind="users"
        rows={permissions.data}
        loading={permissions.isPending}
        error={permissions.error}
        disabled={note !== undefined || !editable}
        disabledNote={note}
      />
    </Box>
  );
}

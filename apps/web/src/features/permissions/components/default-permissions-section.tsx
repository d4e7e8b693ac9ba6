import { PERMISSION_COLUMNS, USER_ROW_HIDDEN_PERMISSIONS, userRowPermissions, type PermissionType, type UpdateSettingRequest } from '@bogwan/contracts';
import { mdiAccount, mdiShieldAccount } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { k, messageText } from '../../../i18n/keys';
import { useAuth } from '../../../state/auth';
import { useSetting, useUpdateSetting } from '../api/get-setting';
import { samePermissions } from '../lib/permission-matrix';
import { PermissionMatrix, type MatrixRow } from './permission-matrix';

type DefaultRow = 'user' | 'admin';
const ROW_LABELS = { user: k('default_permissions_user'), admin: k('default_permissions_admin') } satisfies Record<DefaultRow, string>;

/**
 * Settings → Default permissions: what users and administrators may do where no entry says
 * otherwise. The admin row is hidden from an ADMIN; hidden columns are ignored for the user row.
 */
export function DefaultPermissionsSection() {
  const { t } = useTranslation();
  const role = useAuth()?.user.role;
  const setting = useSetting();
  const update = useUpdateSetting();
  const [edited, setEdited] = useState<Record<DefaultRow, readonly PermissionType[]> | null>(null);
  useEffect(() => setEdited(null), [setting.data]);

  if (setting.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (setting.isError) return <Alert severity="error">{messageText(t, setting.error instanceof ApiError ? setting.error.messageKey : null)}</Alert>;

  const saved = setting.data.permission;
  const current = edited ?? saved;
  const shown: DefaultRow[] = role === 'ADMIN' ? ['user'] : ['user', 'admin'];
  const changedRows = shown.filter((row) => !samePermissions(current[row], saved[row]));

  const rows: MatrixRow[] = shown.map((row) => ({
    id: row,
    name: t(ROW_LABELS[row]),
    label: (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <MdiIcon path={row === 'user' ? mdiAccount : mdiShieldAccount} fontSize="small" sx={{ color: 'text.secondary' }} />
        <span>{t(ROW_LABELS[row])}</span>
      </Stack>
    ),
    permissions: current[row],
    locked: row === 'user' ? USER_ROW_HIDDEN_PERMISSIONS : undefined,
  }));

  const save = () => {
    const permission: UpdateSettingRequest['permission'] = {};
    for (const row of changedRows) {
      permission[row] = row === 'user' ? userRowPermissions(current.user) : [...current.admin];
    }
    update.mutate(
      { _id: setting.data._id, permission },
      {
        onSuccess: () => notify(t('default_permissions_saved')),
        onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
      },
    );
  };

  return (
    <Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2, wordBreak: 'keep-all' }}>
        {t('default_permissions_help')}
      </Typography>
      <PermissionMatrix
        label={t('settings_default_permissions')}
        columns={PERMISSION_COLUMNS}
        rows={rows}
        onChange={(id, permissions) => setEdited({ ...current, [id as DefaultRow]: permissions ?? [] })}
      />
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
        <Button disabled={changedRows.length === 0 || update.isPending} onClick={() => setEdited(null)}>
          {t('reset')}
        </Button>
        <Button variant="contained" disabled={changedRows.length === 0} loading={update.isPending} onClick={save}>
          {t('save')}
        </Button>
      </Stack>
    </Box>
  );
}

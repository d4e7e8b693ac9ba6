import type { Resource, UpdateResourceRequest } from '@bogwan/contracts';
import { mdiAccountGroupOutline, mdiAccountOutline } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { UserAvatar } from '../../../components/user-avatar';
import { messageText } from '../../../i18n/keys';
import { useAccounts } from '../../../api/get-accounts';
import { useGroupInfo } from '../../../api/get-groups';
import { useResourceAt, useSaveResource } from '../../../api/resources';
import { MATRIX_COLUMNS, changedEntries, type EntryPermissions } from '../lib/permission-matrix';
import { PermissionMatrix, type MatrixRow } from './permission-matrix';

type Side = 'groups' | 'users';

function entriesOf(resource: Resource | null | undefined, side: Side): Map<string, EntryPermissions> {
  const map = new Map<string, EntryPermissions>();
  for (const entry of resource?.[side] ?? []) map.set(entry.entity._id, entry.permissions);
  return map;
}

interface ResourcePermissionEditorProps {
  path: string;
  /** Owner of the folder (root folders say so); never listed. */
  ownerId?: string | null;
  onSaved?: () => void;
}

/**
 * The permissions of one folder or file: a groups/users switch, the matrix (groups all,
 * users only those with role USER and not the owner), reset and save. Save sends only the
 * changed entries; the record is created when the node has none yet.
 */
export function ResourcePermissionEditor({ path, ownerId, onSaved }: ResourcePermissionEditorProps) {
  const { t } = useTranslation();
  const resource = useResourceAt(path);
  const accounts = useAccounts();
  const groups = useGroupInfo();
  const save = useSaveResource();
  const [side, setSide] = useState<Side>('groups');
  const original = useMemo(() => ({ groups: entriesOf(resource.data, 'groups'), users: entriesOf(resource.data, 'users') }), [resource.data]);
  const [edits, setEdits] = useState<Record<Side, Map<string, EntryPermissions>>>({ groups: new Map(), users: new Map() });

  const loading = resource.isPending || accounts.isPending || groups.isPending;
  const failure = resource.error ?? accounts.error ?? groups.error;
  if (loading) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
        <CircularProgress aria-label={t('loading')} size={28} />
      </Box>
    );
  }
  if (failure) return <Alert severity="error">{messageText(t, failure instanceof ApiError ? failure.messageKey : null)}</Alert>;

  const owner = resource.data?.owner?._id ?? ownerId ?? null;
  const current = (which: Side) => {
    const merged = new Map(original[which]);
    for (const [id, permissions] of edits[which]) merged.set(id, permissions);
    return merged;
  };
  const changes = { groups: changedEntries(original.groups, current('groups')), users: changedEntries(original.users, current('users')) };
  const dirty = changes.groups.length + changes.users.length > 0;

  const rows: MatrixRow[] =
    side === 'groups'
      ? (groups.data ?? []).map((group) => ({
          id: group._id,
          name: group.name,
          label: (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <UserAvatar name={group.name} group size={26} />
              <span>{group.name}</span>
            </Stack>
          ),
          permissions: current('groups').get(group._id) ?? null,
        }))
      : (accounts.data ?? [])
          .filter((account) => account.role === 'USER' && account._id !== owner)
          .map((account) => ({
            id: account._id,
            name: account.email,
            label: (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
                <UserAvatar name={account.name} role={account.role} profileImage={account.profileImage} size={26} />
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="body2" noWrap>
                    {account.name}
                  </Typography>
                  <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap component="p">
                    {account.email}
                  </Typography>
                </Box>
              </Stack>
            ),
            permissions: current('users').get(account._id) ?? null,
          }));

  const submit = () => {
    const body: UpdateResourceRequest = resource.data ? { _id: resource.data._id } : { path, folder: true };
    if (changes.groups.length) body.groups = changes.groups;
    if (changes.users.length) body.users = changes.users;
    save.mutate(body, {
      // The saved record has been fetched again by now: the edits are part of it.
      onSuccess: () => {
        setEdits({ groups: new Map(), users: new Map() });
        notify(t('save_resource_complete_message'));
        onSaved?.();
      },
      onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'warning'),
    });
  };

  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={side}
          onChange={(_event, value: Side | null) => value && setSide(value)}
          aria-label={t('permission_target')}
        >
          <ToggleButton value="groups">
            <MdiIcon path={mdiAccountGroupOutline} fontSize="small" sx={{ mr: 0.75 }} />
            {t('groups')}
          </ToggleButton>
          <ToggleButton value="users">
            <MdiIcon path={mdiAccountOutline} fontSize="small" sx={{ mr: 0.75 }} />
            {t('users')}
          </ToggleButton>
        </ToggleButtonGroup>
        <Typography variant="caption" sx={{ color: 'text.secondary', flex: 1, minWidth: 200 }}>
          {side === 'users' ? t('permission_users_help') : t('permission_groups_help')}
        </Typography>
      </Stack>
      {rows.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', py: 3, textAlign: 'center' }}>
          {side === 'users' ? t('permission_no_users') : t('group_empty')}
        </Typography>
      ) : (
        <PermissionMatrix
          label={side === 'groups' ? t('groups') : t('users')}
          columns={MATRIX_COLUMNS}
          rows={rows}
          removable
          inheritedNote={t('permission_inherited')}
          onChange={(id, permissions) => setEdits((all) => ({ ...all, [side]: new Map(all[side]).set(id, permissions) }))}
        />
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1.5 }}>
        <Button disabled={!dirty || save.isPending} onClick={() => setEdits({ groups: new Map(), users: new Map() })}>
          {t('reset')}
        </Button>
        <Button variant="contained" disabled={!dirty} loading={save.isPending} onClick={submit}>
          {t('save')}
        </Button>
      </Stack>
    </Box>
  );
}

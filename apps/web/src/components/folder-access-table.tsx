import { ACCESS_LEVELS, type FolderAccess } from '@bogwan/contracts';
import { mdiFolderOutline } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { MdiIcon } from './mdi-icon';
import { notify } from './notify';
import { k, messageText } from '../i18n/keys';
import { useSaveResource } from '../api/resources';
import { changedFolders, loadedChoice, type AccessChoice } from '../lib/folder-access';
import { PERMISSION_LABELS } from '../lib/permission-labels';

export const ACCESS_LABELS = [k('access_level_0'), k('access_level_1'), k('access_level_2'), k('access_level_3')] as const;

function accessIndex(access: number): 0 | 1 | 2 | 3 {
  return Math.min(3, Math.max(0, Math.trunc(access))) as 0 | 1 | 2 | 3;
}

interface FolderAccessEditorProps {
  /** The user or group whose access is shown. */
  entity: string;
  kind: 'users' | 'groups';
  rows: FolderAccess[] | undefined;
  loading?: boolean;
  error?: unknown;
  /** Nothing can be changed (a MASTER has full access everywhere). */
  disabled?: boolean;
  disabledNote?: string;
}

/**
 * Access per root folder (levels 0–3, or inherit): the permission tab of the edit user and
 * edit group dialogs. Save sends each changed folder as an entry of its resource.
 */
export function FolderAccessEditor({ entity, kind, rows, loading, error, disabled, disabledNote }: FolderAccessEditorProps) {
  const { t } = useTranslation();
  const save = useSaveResource();
  const [choices, setChoices] = useState<Map<string, AccessChoice>>(new Map());
  const [saving, setSaving] = useState(false);
  useEffect(() => setChoices(new Map()), [rows]);

  if (loading) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (error || !rows) return <Alert severity="error">{messageText(t, error instanceof ApiError ? error.messageKey : null)}</Alert>;
  const changes = changedFolders(rows, choices, entity);

  const submit = async () => {
    setSaving(true);
    try {
      for (const change of changes) await save.mutateAsync({ path: change.path, [kind]: [change.entry] });
      notify(t('save_resource_complete_message'));
    } catch (failure) {
      notify(messageText(t, failure instanceof ApiError ? failure.messageKey : null), 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box>
      {disabled && disabledNote && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {disabledNote}
        </Alert>
      )}
      {rows.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', py: 4, textAlign: 'center' }}>
          {t('storage_no_root_folders')}
        </Typography>
      ) : (
        <Table size="small" aria-label={t('permission_tab')}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 700 }}>{t('folder')}</TableCell>
              <TableCell sx={{ fontWeight: 700 }}>{t('permission_effective')}</TableCell>
              <TableCell sx={{ fontWeight: 700, width: 240 }}>{t('access_level')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => {
              const choice = choices.get(row.inode) ?? loadedChoice(row);
              return (
                <TableRow key={row.inode} data-folder-path={row.path}>
                  <TableCell>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <MdiIcon path={mdiFolderOutline} fontSize="small" sx={{ color: 'warning.main' }} />
                      <span>{row.name}</span>
                    </Stack>
                  </TableCell>
                  <TableCell sx={{ color: 'text.secondary', fontSize: 13 }} data-testid="effective-permissions">
                    {row.permissions.length === 0 ? '—' : row.permissions.map((permission) => t(PERMISSION_LABELS[permission])).join(', ')}
                  </TableCell>
                  <TableCell>
                    <Select
                      size="small"
                      fullWidth
                      value={String(choice)}
                      disabled={disabled}
                      inputProps={{ 'aria-label': t('access_level_of', { folder: row.name }) }}
                      onChange={(event) => {
                        const value = event.target.value;
                        setChoices((current) => new Map(current).set(row.inode, value === 'inherit' ? 'inherit' : (Number(value) as AccessChoice)));
                      }}
                    >
                      <MenuItem value="inherit">
                        {row.explicit ? t('access_inherit') : t('access_inherit_level', { level: t(ACCESS_LABELS[accessIndex(row.access)]) })}
                      </MenuItem>
                      {ACCESS_LEVELS.map((level) => (
                        <MenuItem key={level} value={String(level)}>
                          {level} · {t(ACCESS_LABELS[level])}
                        </MenuItem>
                      ))}
                    </Select>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      {!disabled && rows.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
          <Button disabled={changes.length === 0 || saving} onClick={() => setChoices(new Map())}>
            {t('reset')}
          </Button>
          <Button variant="contained" disabled={changes.length === 0} loading={saving} onClick={() => void submit()}>
            {t('save')}
          </Button>
        </Stack>
      )}
    </Box>
  );
}

import { SETTINGS_PAGE_SIZE, type Resource } from '@bogwan/contracts';
import { mdiDeleteOutline, mdiDotsVertical, mdiFileOutline, mdiFolderOutline, mdiPencilOutline, mdiPlus } from '@mdi/js';
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
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { PagedTable, type PagedColumn } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { UserAvatar } from '../../../components/user-avatar';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useDeleteResource, useResources } from '../../../api/resources';
import { useFolderPicker } from '../../../components/folder-picker';
import { ResourcePermissionEditor } from './resource-permission-editor';
import { useRowMenu } from '../../../components/use-row-menu';

/** Settings → Resource list: every permission record, with edit and delete; add one through a folder picker. */
export function ResourceSection() {
  const { t } = useTranslation();
  const FolderPicker = useFolderPicker();
  const locale = useLocale();
  const resources = useResources();
  const remove = useDeleteResource();
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const menu = useRowMenu<Resource>();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Resource | null>(null);
  const [picking, setPicking] = useState(false);
  const rows = resources.data ?? [];

  const columns: PagedColumn<Resource>[] = [
    {
      id: 'kind',
      label: t('column_type'),
      width: 80,
      render: (resource) => (
        <Tooltip title={resource.folder ? t('folder') : t('file')}>
          <Box component="span" role="img" aria-label={resource.folder ? t('folder') : t('file')} sx={{ display: 'inline-flex' }}>
            <MdiIcon path={resource.folder ? mdiFolderOutline : mdiFileOutline} sx={{ color: resource.folder ? 'warning.main' : 'text.secondary' }} />
          </Box>
        </Tooltip>
      ),
    },
    {
      id: 'path',
      label: t('folder_path'),
      render: (resource) => (
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {resource.name}
          </Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary', wordBreak: 'break-all' }} component="p">
            {resource.path}
          </Typography>
        </Box>
      ),
    },
    {
      id: 'entries',
      label: t('resource_entries'),
      width: 150,
      render: (resource) => t('resource_entry_counts', { groups: resource.groups.length, users: resource.users.length }),
    },
    {
      id: 'owner',
      label: t('column_owner'),
      width: 160,
      render: (resource) =>
        resource.owner ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <UserAvatar name={resource.owner.name} email={resource.owner.email} profileImage={resource.owner.profileImage} size={26} link />
            <Typography variant="body2" noWrap>
              {resource.owner.name}
            </Typography>
          </Stack>
        ) : (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            —
          </Typography>
        ),
    },
    {
      id: 'createdAt',
      label: t('column_created_date'),
      width: 170,
      render: (resource) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(resource.createdAt, locale)}
        </Box>
      ),
    },
    {
      id: 'actions',
      label: '',
      width: 52,
      align: 'right',
      render: (resource) => (
        <IconButton
          size="small"
          aria-label={t('resource_actions', { path: resource.path })}
          aria-haspopup="menu"
          onClick={(event) => menu.openFrom(event.currentTarget, resource)}
        >
          <MdiIcon path={mdiDotsVertical} fontSize="small" />
        </IconButton>
      ),
    },
  ];

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1.5 }}>
        <Button size="small" variant="contained" startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setPicking(true)}>
          {t('resource_add')}
        </Button>
      </Box>
      <PagedTable
        label={t('settings_resource')}
        columns={columns}
        rows={paging.slice(rows)}
        rowKey={(resource) => resource._id}
        total={rows.length}
        {...paging.props}
        loading={resources.isPending}
        error={resources.isError}
        onRowContextMenu={(resource, event) => menu.openAt(event, resource)}
        empty={t('resource_empty')}
      />
      <Menu {...menu.menuProps}>
        <MenuItem onClick={menu.pick((resource) => setEditing(resource.path))}>
          <ListItemIcon>
            <MdiIcon path={mdiPencilOutline} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('resource_edit')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={menu.pick(setDeleting)}>
          <ListItemIcon>
            <MdiIcon path={mdiDeleteOutline} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('resource_delete')}</ListItemText>
        </MenuItem>
      </Menu>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} maxWidth="lg" fullWidth aria-labelledby="resource-edit-title">
        <DialogTitle id="resource-edit-title">
          {t('resource_edit')}
          <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
            {editing}
          </Typography>
        </DialogTitle>
        <DialogContent>{editing && <ResourcePermissionEditor key={editing} path={editing} />}</DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={() => setEditing(null)}>{t('close')}</Button>
        </DialogActions>
      </Dialog>
      <FolderPicker
        open={picking}
        onClose={() => setPicking(false)}
        onPick={(path) => {
          setPicking(false);
          setEditing(path);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('resource_delete')}
        message={deleting ? t('resource_delete_confirm', { path: deleting.path }) : ''}
        confirmLabel={t('delete')}
        danger
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              notify(t('resource_deleted'));
              setDeleting(null);
            },
            onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
          })
        }
      />
    </Box>
  );
}

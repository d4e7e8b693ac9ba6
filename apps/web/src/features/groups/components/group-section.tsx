import { SETTINGS_PAGE_SIZE, type Group } from '@bogwan/contracts';
import { mdiAccountGroupOutline, mdiDeleteOutline, mdiDotsVertical, mdiPencilOutline, mdiPlus } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
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
import { useDeleteGroup } from '../api/change-groups';
import { useGroups } from '../../../api/get-groups';
import { isDefaultGroup } from '../lib/group-rules';
import { GroupEditDialog } from './group-edit-dialog';
import { CreateGroupDialog } from './group-form-dialog';
import { GroupMembersDialog } from './group-members-dialog';
import { useRowMenu } from '../../../components/use-row-menu';

/** Settings → Group list: name, description, member count, creation date; create, edit, members, delete. */
export function GroupSection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const groups = useGroups();
  const remove = useDeleteGroup();
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const [creating, setCreating] = useState(false);
  const menu = useRowMenu<Group>();
  const [editingId, setEditingId] = useState<string | null>(null);
  const [membersId, setMembersId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const rows = groups.data ?? [];
  // Dialogs show the group as the list has it now (after a save or a member change).
  const find = (id: string | null) => rows.find((group) => group._id === id) ?? null;

  const columns: PagedColumn<Group>[] = [
    {
      id: 'name',
      label: t('group_name'),
      render: (group) => (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <UserAvatar name={group.name} group size={32} />
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {group.name}
          </Typography>
        </Stack>
      ),
    },
    { id: 'description', label: t('column_description'), render: (group) => group.description },
    { id: 'users', label: t('column_users'), width: 90, align: 'right', render: (group) => t('member_count', { n: group.users.length }) },
    {
      id: 'createdAt',
      label: t('column_created_date'),
      width: 180,
      render: (group) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(group.createdAt, locale)}
        </Box>
      ),
    },
    {
      id: 'actions',
      label: '',
      width: 52,
      align: 'right',
      render: (group) => (
        <IconButton
          size="small"
          aria-label={t('group_actions', { name: group.name })}
          aria-haspopup="menu"
          onClick={(event) => menu.openFrom(event.currentTarget, group)}
        >
          <MdiIcon path={mdiDotsVertical} fontSize="small" />
        </IconButton>
      ),
    },
  ];

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1.5 }}>
        <Button size="small" variant="contained" startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setCreating(true)}>
          {t('group_create')}
        </Button>
      </Box>
      <PagedTable
        label={t('settings_group')}
        columns={columns}
        rows={paging.slice(rows)}
        rowKey={(group) => group._id}
        total={rows.length}
        {...paging.props}
        loading={groups.isPending}
        error={groups.isError}
        onRowContextMenu={(group, event) => menu.openAt(event, group)}
        empty={t('group_empty')}
      />
      <Menu {...menu.menuProps}>
        <MenuItem onClick={menu.pick((group) => setEditingId(group._id))}>
          <ListItemIcon>
            <MdiIcon path={mdiPencilOutline} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('group_edit')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={menu.pick((group) => setMembersId(group._id))}>
          <ListItemIcon>
            <MdiIcon path={mdiAccountGroupOutline} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('group_manage_members')}</ListItemText>
        </MenuItem>
        {menu.row && !isDefaultGroup(menu.row) && (
          <MenuItem onClick={menu.pick(setDeleting)}>
            <ListItemIcon>
              <MdiIcon path={mdiDeleteOutline} fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('group_delete')}</ListItemText>
          </MenuItem>
        )}
      </Menu>
      <CreateGroupDialog open={creating} onClose={() => setCreating(false)} />
      <GroupEditDialog group={find(editingId)} onClose={() => setEditingId(null)} />
      <GroupMembersDialog group={find(membersId)} onClose={() => setMembersId(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('group_delete')}
        message={deleting ? t('group_delete_confirm', { name: deleting.name, count: deleting.users.length }) : ''}
        confirmLabel={t('delete')}
        danger
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              notify(t('group_deleted'));
              setDeleting(null);
            },
            onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
          })
        }
      />
    </Box>
  );
}

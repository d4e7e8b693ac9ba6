import { SETTINGS_PAGE_SIZE, USER_STATUSES, type Account, type BulkPreview, type Role, type UserStatus } from '@bogwan/contracts';
import { mdiAccountPlusOutline, mdiDeleteOutline, mdiDotsVertical, mdiFileExcelOutline, mdiMagnify, mdiPencilOutline, mdiTrayArrowDown } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { PagedTable, type PagedColumn } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { ROLE_LABELS, UserAvatar } from '../../../components/user-avatar';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useReadSheet } from '../api/bulk-register';
import { useDeleteAccountByAdmin } from '../api/delete-account';
import { useAccounts } from '../../../api/get-accounts';
import { useUpdateAccount } from '../api/update-account';
import { totalRows } from '../lib/bulk-rows';
import { assignableRoles, canDeleteAccount, canEditAccount, canEditGroups, canEditRole, canEditStatus, matchesKeyword } from '../lib/role-rules';
import { RoleChip, STATUS_LABELS, StatusChip } from './account-chips';
import { BulkRegisterDialog } from './bulk-register-dialog';
import { ChoiceDialog } from './choice-dialog';
import { CreateAccountDialog } from './create-account-dialog';
import { EditAccountDialog } from './edit-account-dialog';
import { useRowMenu } from '../../../components/use-row-menu';

const EXCEL_EXTENSIONS = /\.(xlsx|xls)$/i;

type Change = { kind: 'status' | 'role'; account: Account } | null;

/** Settings → Account list: paged accounts with status and role chips, Excel bulk registration, create, edit, delete. */
export function AccountSection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const me = useAuth()?.user;
  const accounts = useAccounts();
  const update = useUpdateAccount();
  const remove = useDeleteAccountByAdmin();
  const readSheet = useReadSheet();
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const [keyword, setKeyword] = useState('');
  const [change, setChange] = useState<Change>(null);
  const menu = useRowMenu<Account>();
  const [editing, setEditing] = useState<Account | null>(null);
  const [deleting, setDeleting] = useState<Account | null>(null);
  const [creating, setCreating] = useState(false);
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  const sheetInput = useRef<HTMLInputElement>(null);
  const closePreview = useCallback(() => setPreview(null), []);

  const rows = useMemo(() => (accounts.data ?? []).filter((account) => matchesKeyword(account, keyword)), [accounts.data, keyword]);
  // The dialog follows the list after a save (name, groups).
  const editingNow = editing ? (accounts.data?.find((account) => account._id === editing._id) ?? editing) : null;
  if (!me) return null;

  const failed = (error: unknown) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');

  const saveChange = (value: string) => {
    if (!change) return;
    const { account } = change;
    const body =
      change.kind === 'status'
        ? { _id: account._id, status: value as UserStatus, ...(account.status === 'PENDING' && value === 'ACTIVE' ? { approved: true } : {}) }
        : { _id: account._id, role: value as Role };
    update.mutate(body, {
      onSuccess: () => {
        notify(t('account_saved'));
        setChange(null);
      },
      onError: failed,
    });
  };

  const chooseSheet = (file: File | undefined) => {
    if (!file) return;
    if (!EXCEL_EXTENSIONS.test(file.name)) return notify(t('excel_invalid_file'), 'error');
    readSheet.mutate(file, {
      onSuccess: (result) => (totalRows(result) === 0 ? notify(t('no_register_information'), 'warning') : setPreview(result)),
      onError: failed,
    });
  };

  const columns: PagedColumn<Account>[] = [
    {
      id: 'name',
      label: t('name'),
      render: (account) => (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <UserAvatar name={account.name} email={account.email} role={account.role} profileImage={account.profileImage} size={34} link />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
              {account.name}
            </Typography>
            <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap component="p">
              {account.email}
            </Typography>
          </Box>
        </Stack>
      ),
    },
    {
      id: 'status',
      label: t('column_status'),
      width: 110,
      render: (account) => (
        <StatusChip status={account.status} onClick={canEditStatus(me, account) ? () => setChange({ kind: 'status', account }) : undefined} />
      ),
    },
    {
      id: 'role',
      label: t('column_role'),
      width: 140,
      render: (account) => <RoleChip role={account.role} onClick={canEditRole(me, account) ? () => setChange({ kind: 'role', account }) : undefined} />,
    },
    {
      id: 'last_login',
      label: t('column_last_login'),
      width: 180,
      render: (account) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap', color: account.lastLogin ? 'text.primary' : 'text.secondary' }}>
          {account.lastLogin ? formatDateTime(account.lastLogin, locale) : t('never_signed_in')}
        </Box>
      ),
    },
    {
      id: 'actions',
      label: '',
      width: 52,
      align: 'right',
      render: (account) => (
        <IconButton
          size="small"
          aria-label={t('account_actions', { name: account.name })}
          aria-haspopup="menu"
          onClick={(event) => menu.openFrom(event.currentTarget, account)}
        >
          <MdiIcon path={mdiDotsVertical} fontSize="small" />
        </IconButton>
      ),
    },
  ];

  const statusOptions = USER_STATUSES.map((status) => ({ value: status, label: t(STATUS_LABELS[status]) }));
  const roleOptions = assignableRoles(me).map((role) => ({ value: role, label: t(ROLE_LABELS[role]) }));

  return (
    <Box>
      <Stack direction="row" useFlexGap spacing={1} sx={{ mb: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          size="small"
          placeholder={t('search_keyword')}
          value={keyword}
          onChange={(event) => {
            setKeyword(event.target.value);
            paging.setPage(0);
          }}
          slotProps={{
            htmlInput: { 'aria-label': t('search_keyword'), maxLength: 50 },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <MdiIcon path={mdiMagnify} fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ minWidth: 240, flexGrow: { xs: 1, sm: 0 } }}
        />
        <Box sx={{ flexGrow: 1 }} />
        <Button size="small" variant="outlined" component="a" href="/sample.xlsx" download="sample.xlsx" startIcon={<MdiIcon path={mdiTrayArrowDown} />}>
          {t('account_sample_download')}
        </Button>
        <Button
          size="small"
          variant="outlined"
          startIcon={<MdiIcon path={mdiFileExcelOutline} />}
          loading={readSheet.isPending}
          onClick={() => sheetInput.current?.click()}
        >
          {t('account_bulk_register')}
        </Button>
        <Button size="small" variant="contained" startIcon={<MdiIcon path={mdiAccountPlusOutline} />} onClick={() => setCreating(true)}>
          {t('account_create')}
        </Button>
        <input
          ref={sheetInput}
          type="file"
          hidden
          accept=".xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
          data-testid="bulk-register-input"
          onChange={(event) => {
            chooseSheet(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </Stack>
      <PagedTable
        label={t('settings_account')}
        columns={columns}
        rows={paging.slice(rows)}
        rowKey={(account) => account._id}
        total={rows.length}
        {...paging.props}
        loading={accounts.isPending}
        error={accounts.isError}
        onRowContextMenu={(account, event) => menu.openAt(event, account)}
        empty={keyword ? t('no_search_result') : t('no_data')}
      />
      <Menu {...menu.menuProps}>
        <MenuItem onClick={menu.pick(setEditing)}>
          <ListItemIcon>
            <MdiIcon path={mdiPencilOutline} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('account_edit')}</ListItemText>
        </MenuItem>
        <MenuItem disabled={!menu.row || !canDeleteAccount(me, menu.row)} onClick={menu.pick(setDeleting)}>
          <ListItemIcon>
            <MdiIcon path={mdiDeleteOutline} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('account_delete')}</ListItemText>
        </MenuItem>
      </Menu>
      <ChoiceDialog
        open={change !== null}
        title={change?.kind === 'role' ? t('change_role') : t('change_status')}
        message={change ? t('change_for', { name: change.account.name }) : ''}
        options={change?.kind === 'role' ? roleOptions : statusOptions}
        busy={update.isPending}
        onSave={saveChange}
        onClose={() => setChange(null)}
      />
      <EditAccountDialog
        account={editingNow}
        editable={editingNow ? canEditAccount(me, editingNow) : false}
        groupsEditable={editingNow ? canEditGroups(me, editingNow) : false}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('account_delete')}
        message={deleting ? t('account_delete_confirm', { name: deleting.name, email: deleting.email }) : ''}
        confirmLabel={t('delete')}
        danger
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              notify(t('account_deleted'));
              setDeleting(null);
            },
            onError: failed,
          })
        }
      />
      <CreateAccountDialog open={creating} onClose={() => setCreating(false)} />
      <BulkRegisterDialog initial={preview} onClose={closePreview} />
    </Box>
  );
}

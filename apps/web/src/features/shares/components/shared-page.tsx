import type { ShareLink, SharedItem } from '@bogwan/contracts';
import { mdiContentCopy, mdiFileOutline, mdiFolder, mdiLinkOff, mdiOpenInNew, mdiPencilOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { DataTable, type DataColumn, type DataRowAction } from '../../../components/data-table';
import { Deferred } from '../../../components/deferred';
import { TabStrip } from '../../../components/tab-strip';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { Tag } from '../../../components/tag';
import { formatDateTime } from '../../../i18n/format-time';
import { k, messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useShares } from '../api/list-shares';
import { useRevokeShare } from '../api/revoke-share';
import { copyToClipboard } from '../../../components/copy-to-clipboard';
import { shareAddress } from '../lib/share-url';
import { SCOPE_LABELS } from './share-scope-labels';

// The edit dialog loads its code when first opened.
const ShareDialog = lazy(() => import('./share-dialog').then((m) => ({ default: m.ShareDialog })));

const STATE_LABELS = { active: k('share_state_active'), expired: k('share_state_expired'), exceeded: k('share_state_exceeded') } as const;

/** /shared: the user's links (copy, edit, revoke) and what others shared with them. */
export function SharedPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const index = params.get('tab') === '1' ? 1 : 0;
  useEffect(() => {
    document.title = `${t('nav_shared')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 1280, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_shared')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('shared_description')}
      </Typography>
      <TabStrip sx={{ mb: 2 }} labels={[t('shared_tab_mine'), t('shared_tab_with_me')]} value={index} onChange={(value) => setParams({ tab: String(value) })} />
      <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
        {index === 0 ? <MyLinks /> : <SharedWithMe />}
      </Paper>
    </Box>
  );
}

function MyLinks() {
  const { t } = useTranslation();
  const locale = useLocale();
  const shares = useShares();
  const revoke = useRevokeShare();
  const [editing, setEditing] = useState<ShareLink | null>(null);
  const copy = (link: ShareLink) => void copyToClipboard(shareAddress(link.key, locale)).then(() => notify(t('share_copied_message'), 'success'));

  const columns: DataColumn<ShareLink>[] = [
    {
      id: 'name',
      label: t('column_name'),
      render: (row) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <MdiIcon path={row.folder ? mdiFolder : mdiFileOutline} fontSize="small" htmlColor={row.folder ? '#f5b400' : undefined} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2">{row.name || '—'}</Typography>
            <Typography variant="caption" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
              {row.path ?? t('share_item_gone')}
            </Typography>
          </Box>
        </Stack>
      ),
    },
    { id: 'scope', label: t('share_scope'), render: (row) => t(SCOPE_LABELS[row.scope]) },
    {
      id: 'state',
      label: t('column_status'),
      render: (row) => <Tag variant="outlined" color={row.state === 'active' ? 'success' : 'default'} label={t(STATE_LABELS[row.state])} />,
    },
    { id: 'password', label: t('share_password'), render: (row) => (row.hasPassword ? t('share_password_set') : '—') },
    {
      id: 'downloads',
      label: t('share_downloads'),
      align: 'right',
      render: (row) => (row.downloadLimit === null ? String(row.downloadCount) : `${row.downloadCount} / ${row.downloadLimit}`),
    },
    { id: 'expiresAt', label: t('share_expires_at'), render: (row) => (row.expiresAt ? formatDateTime(row.expiresAt, locale) : t('share_no_expiry')) },
    { id: 'createdAt', label: t('column_created_at'), render: (row) => formatDateTime(row.createdAt, locale) },
  ];
  const actions: DataRowAction<ShareLink>[] = [
    { id: 'copy', label: t('share_copy_link'), icon: mdiContentCopy, run: copy },
    { id: 'edit', label: t('share_edit'), icon: mdiPencilOutline, visible: (row) => row.path !== null, run: setEditing },
    {
      id: 'revoke',
      label: t('share_revoke'),
      icon: mdiLinkOff,
      danger: true,
      run: (row) =>
        revoke.mutate(row._id, {
          onSuccess: () => notify(t('share_revoked_message'), 'success'),
          onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
        }),
    },
  ];
  return (
    <>
      <DataTable
        label={t('shared_tab_mine')}
        columns={columns}
        rows={shares.data?.mine ?? []}
        rowKey={(row) => row._id}
        searchText={(row) => `${row.name} ${row.path ?? ''} ${row.scope}`}
        actions={actions}
        onRefresh={() => void shares.refetch()}
        loading={shares.isPending}
        error={shares.isError}
      />
      <Deferred open={editing !== null}>
        <ShareDialog open={editing !== null} item={null} link={editing} onClose={() => setEditing(null)} />
      </Deferred>
    </>
  );
}

function SharedWithMe() {
  const { t } = useTranslation();
  const locale = useLocale();
  const shares = useShares();
  const columns: DataColumn<SharedItem>[] = [
    {
      id: 'name',
      label: t('column_name'),
      render: (row) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <MdiIcon path={row.folder ? mdiFolder : mdiFileOutline} fontSize="small" htmlColor={row.folder ? '#f5b400' : undefined} />
          <Typography variant="body2">{row.name}</Typography>
        </Stack>
      ),
    },
    { id: 'creator', label: t('share_shared_by'), render: (row) => row.creator.name || row.creator.email },
    { id: 'expiresAt', label: t('share_expires_at'), render: (row) => (row.expiresAt ? formatDateTime(row.expiresAt, locale) : t('share_no_expiry')) },
    { id: 'createdAt', label: t('column_created_at'), render: (row) => formatDateTime(row.createdAt, locale) },
  ];
  const open = (row: SharedItem) => window.open(shareAddress(row.key, locale), '_blank', 'noopener');
  const actions: DataRowAction<SharedItem>[] = [
    { id: 'open', label: t('share_open'), icon: mdiOpenInNew, run: open },
    {
      id: 'copy',
      label: t('share_copy_link'),
      icon: mdiContentCopy,
      run: (row) => void copyToClipboard(shareAddress(row.key, locale)).then(() => notify(t('share_copied_message'), 'success')),
    },
  ];
  return (
    <DataTable
      label={t('shared_tab_with_me')}
      columns={columns}
      rows={shares.data?.sharedWithMe ?? []}
      rowKey={(row) => row._id}
      searchText={(row) => `${row.name} ${row.creator.name} ${row.creator.email}`}
      actions={actions}
      onRowClick={open}
      onRefresh={() => void shares.refetch()}
      loading={shares.isPending}
      error={shares.isError}
    />
  );
}

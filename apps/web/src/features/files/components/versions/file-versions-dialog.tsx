import type { FileVersion } from '@bogwan/contracts';
import { mdiClose, mdiDeleteOutline, mdiDownload, mdiRestore } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { MdiIcon } from '../../../../components/mdi-icon';
import { notify } from '../../../../components/notify';
import { useFullScreenDialog } from '../../../../components/use-full-screen-dialog';
import { formatDateTime } from '../../../../i18n/format-time';
import { messageText } from '../../../../i18n/keys';
import { useLocale } from '../../../../i18n/use-locale';
import { useFormatBytes } from '../../../../lib/format-bytes';
import { downloadVersion, useDeleteVersion, useFileVersions, useRestoreVersion } from '../../api/versions';
import { ConfirmDialog } from '../../../../components/confirm-dialog';

/** The file whose versions are shown. */
export interface VersionsFile {
  path: string;
  name: string;
}

type Pending = { kind: 'restore' | 'delete'; version: FileVersion } | null;

/** The first characters of a SHA-256, enough to tell versions apart at a glance. */
const shortHash = (hash: string) => hash.slice(0, 8);

function VersionRow({
  version,
  onDownload,
  onRestore,
  onDelete,
  busy,
}: {
  version: FileVersion;
  onDownload: () => void;
  onRestore: () => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const formatBytes = useFormatBytes();
  const when = formatDateTime(version.createdAt, locale);
  return (
    <Box
      component="li"
      data-testid="version-row"
      data-current={version.current}
      sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1.25, borderTop: 1, borderColor: 'divider', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
    >
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {when}
          </Typography>
          {version.current && <Chip size="small" color="primary" label={t('versions_current')} />}
        </Box>
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
          {version.author?.name ?? t('versions_author_gone')} · {formatBytes(version.size)} ·{' '}
          <Box component="span" title={version.hash} sx={{ fontFamily: 'monospace' }}>
            {shortHash(version.hash)}
          </Box>
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexShrink: 0, ml: 'auto' }}>
        <Tooltip title={t('download')}>
          <IconButton aria-label={`${t('download')}: ${when}`} onClick={onDownload}>
            <MdiIcon path={mdiDownload} fontSize="small" />
          </IconButton>
        </Tooltip>
        {!version.current && (
          <>
            <Tooltip title={t('versions_restore')}>
              <span>
                <IconButton aria-label={`${t('versions_restore')}: ${when}`} onClick={onRestore} disabled={busy}>
                  <MdiIcon path={mdiRestore} fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title={t('versions_delete')}>
              <span>
                <IconButton aria-label={`${t('versions_delete')}: ${when}`} color="error" onClick={onDelete} disabled={busy}>
                  <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          </>
        )}
      </Box>
    </Box>
  );
}

/**
 * A file's versions, the current content first: who wrote each, when, its size and short
 * hash; download any (through the browser's download manager), restore an earlier one (the
 * current content becomes a version in turn) or delete it, each after a confirmation.
 */
export function FileVersionsDialog({ file, onClose }: { file: VersionsFile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const fullScreen = useFullScreenDialog();
  const versions = useFileVersions(file?.path ?? null);
  const restore = useRestoreVersion();
  const remove = useDeleteVersion();
  const [pending, setPending] = useState<Pending>(null);
  const failed = (error: unknown) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');
  const items = versions.data?.items ?? [];
  const date = pending ? formatDateTime(pending.version.createdAt, locale) : '';

  const confirm = () => {
    if (!file || !pending) return;
    const ref = { path: file.path, id: pending.version._id };
    const done = { onSettled: () => setPending(null), onError: failed };
    if (pending.kind === 'restore') restore.mutate(ref, { ...done, onSuccess: () => notify(t('versions_restored', { date })) });
    else remove.mutate(ref, { ...done, onSuccess: () => notify(t('versions_deleted')) });
  };

  return (
    <Dialog open={file !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="file-versions-title">
      <DialogTitle id="file-versions-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
        <Typography component="span" variant="h6" noWrap sx={{ flexGrow: 1, minWidth: 0 }}>
          {t('versions_title', { name: file?.name ?? '' })}
        </Typography>
        <IconButton aria-label={t('close')} onClick={onClose}>
          <MdiIcon path={mdiClose} />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {versions.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress size={28} />
          </Box>
        ) : versions.isError ? (
          <Alert severity="error">{messageText(t, versions.error instanceof ApiError ? versions.error.messageKey : null)}</Alert>
        ) : (
          <>
            <Box component="ul" aria-label={t('versions')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {items.map((version) => (
                <VersionRow
                  key={version._id}
                  version={version}
                  busy={restore.isPending || remove.isPending}
                  onDownload={() => file && downloadVersion({ path: file.path, id: version._id }).catch(failed)}
                  onRestore={() => setPending({ kind: 'restore', version })}
                  onDelete={() => setPending({ kind: 'delete', version })}
                />
              ))}
            </Box>
            {items.length <= 1 && (
              <Typography variant="body2" sx={{ color: 'text.secondary', pt: 2 }}>
                {t('versions_empty')}
              </Typography>
            )}
          </>
        )}
      </DialogContent>
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'delete' ? t('versions_delete') : t('versions_restore')}
        message={pending?.kind === 'delete' ? t('versions_confirm_delete', { date }) : t('versions_confirm_restore', { date })}
        confirmLabel={pending?.kind === 'delete' ? t('delete') : t('versions_restore')}
        danger={pending?.kind === 'delete'}
        busy={restore.isPending || remove.isPending}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      />
    </Dialog>
  );
}

import type { PublicShareEntry } from '@bogwan/contracts';
import { mdiAlertCircleOutline, mdiDownload, mdiEyeOutline, mdiFileOutline, mdiFolder, mdiFolderLock, mdiLinkVariant, mdiLockOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale, useLocalePath } from '../../../i18n/use-locale';
import { signInHref } from '../../../lib/return-path';
import { useAuth } from '../../../state/auth';
import { stripLocale } from '../../../state/locale';
import { sharesKeys } from '../api/keys';
import { shareDownloadTicket, ticketDownloadUrl, usePublicShare, usePublicShareList, useUnlockShare } from '../api/public-share';
import { formatBytes } from '../../../lib/format-bytes';
import { startDownload } from '../../../api/browser-download';
import { SharePreviewDialog } from './share-preview-dialog';

const keyOf = (error: unknown) => (error instanceof ApiError ? error.messageKey : null);
/** When to look again at the link after handing a download to the browser: its download is taken once the browser's request arrives. */
const RECHECK_AFTER_MS = [1000, 4000];

/** The public page of a share link: password, the file or folder, downloads and previews, or why it cannot be opened. */
export function SharePage({ shareKey }: { shareKey: string }) {
  const { t } = useTranslation();
  const [shareToken, setShareToken] = useState<string | null>(null);
  const info = usePublicShare(shareKey, shareToken);

  if (info.isPending) return <CircularProgress aria-label={t('loading')} sx={{ display: 'block', mx: 'auto', my: 4 }} />;
  if (info.isError) return <ShareProblem messageKey={keyOf(info.error)} />;
  const share = info.data;
  if (!share.unlocked) return <PasswordForm shareKey={shareKey} onUnlocked={setShareToken} />;
  return <ShareContents shareKey={shareKey} shareToken={shareToken} />;
}

function ShareProblem({ messageKey }: { messageKey: string | null }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const signedIn = useAuth() !== null;
  const location = useLocation();
  return (
    <Box role="alert" sx={{ textAlign: 'center', py: 2 }}>
      <MdiIcon path={mdiAlertCircleOutline} sx={{ fontSize: 48, color: 'text.secondary', mb: 1 }} />
      <Typography variant="h6" component="p" data-testid="share-problem">
        {messageText(t, messageKey)}
      </Typography>
      {messageKey === 'share_login_required' && !signedIn && (
        <Button component={RouterLink} to={localePath(signInHref(stripLocale(location.pathname)))} variant="contained" sx={{ mt: 2 }}>
          {t('login')}
        </Button>
      )}
    </Box>
  );
}

function PasswordForm({ shareKey, onUnlocked }: { shareKey: string; onUnlocked: (token: string) => void }) {
  const { t } = useTranslation();
  const unlock = useUnlockShare(shareKey);
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return;
    unlock.mutate(password, { onSuccess: ({ shareToken }) => onUnlocked(shareToken) });
  };
  return (
    <Box component="form" onSubmit={submit} sx={{ textAlign: 'center' }}>
      <MdiIcon path={mdiLockOutline} sx={{ fontSize: 48, color: 'text.secondary', mb: 1 }} />
      <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
        {t('share_password_title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('share_password_hint')}
      </Typography>
      <Stack spacing={2}>
        <TextField
          type="password"
          label={t('share_password')}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoFocus
          error={unlock.isError}
          helperText={unlock.isError ? messageText(t, keyOf(unlock.error)) : undefined}
        />
        <Button type="submit" variant="contained" disabled={!password || unlock.isPending}>
          {t('share_open')}
        </Button>
      </Stack>
    </Box>
  );
}

function ShareContents({ shareKey, shareToken }: { shareKey: string; shareToken: string | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const info = usePublicShare(shareKey, shareToken);
  const share = info.data!;
  const [path, setPath] = useState('/');
  const [busy, setBusy] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<{ path: string; name: string } | null>(null);
  const list = usePublicShareList(shareKey, shareToken, path, share.folder === true);

  // The browser streams the download to disk from a single-use ticket; the page never holds the bytes.
  const download = async (itemPath: string) => {
    setBusy(itemPath);
    const recheck = () => queryClient.invalidateQueries({ queryKey: sharesKeys.public(shareKey, shareToken) });
    try {
      startDownload(ticketDownloadUrl(await shareDownloadTicket(shareKey, shareToken, itemPath)));
      notify(t('share_download_started'), 'success');
      for (const ms of RECHECK_AFTER_MS) setTimeout(() => void recheck(), ms);
    } catch (error) {
      notify(messageText(t, keyOf(error)), 'error');
      await recheck();
    } finally {
      setBusy(null);
    }
  };

  const segments = path === '/' ? [] : path.slice(1).split('/');
  const downloadsLeft = share.downloadsLeft;

  return (
    <Box>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
        <MdiIcon path={share.folder ? mdiFolder : mdiLinkVariant} sx={{ fontSize: 40, color: share.folder ? '#f5b400' : 'text.secondary' }} />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h1" sx={{ wordBreak: 'break-all' }} data-testid="share-name">
            {share.name}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {[
              share.folder ? null : formatBytes(share.size ?? 0, locale),
              t('share_from', { name: share.creator }),
              share.expiresAt ? t('share_expires_on', { date: formatDateTime(share.expiresAt, locale) }) : null,
              downloadsLeft !== null ? t('share_downloads_left', { count: downloadsLeft }) : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        </Box>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ mb: share.folder ? 2 : 0 }}>
        <Button variant="contained" startIcon={<MdiIcon path={mdiDownload} />} disabled={busy !== null} onClick={() => void download('/')}>
          {share.folder ? t('share_download_all') : t('download')}
        </Button>
        {!share.folder && share.preview && (
          <Button variant="outlined" startIcon={<MdiIcon path={mdiEyeOutline} />} onClick={() => setPreviewing({ path: '/', name: share.name! })}>
            {t('share_preview')}
          </Button>
        )}
      </Stack>
      {share.folder && (
        <>
          <Breadcrumbs sx={{ mb: 1 }}>
            <Link component="button" underline="hover" onClick={() => setPath('/')}>
              {share.name}
            </Link>
            {segments.map((segment, index) => (
              <Link key={index} component="button" underline="hover" onClick={() => setPath(`/${segments.slice(0, index + 1).join('/')}`)}>
                {segment}
              </Link>
            ))}
          </Breadcrumbs>
          {list.isError && <Typography sx={{ color: 'error.main' }}>{messageText(t, keyOf(list.error))}</Typography>}
          {list.data?.items.length === 0 && <Typography sx={{ color: 'text.secondary', py: 2 }}>{t('folder_empty')}</Typography>}
          {list.data?.items.some((entry: PublicShareEntry) => entry.folder && entry.lock) && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="share-locked-note">
              {t('share_locked_left_out')}
            </Typography>
          )}
          <List dense aria-label={t('file_list')}>
            {list.data?.items.map((entry: PublicShareEntry) => (
              <ListItem
                key={entry.path}
                disablePadding
                secondaryAction={
                  <Stack direction="row">
                    {!entry.folder && share.preview && (
                      <Tooltip title={t('share_preview')}>
                        <IconButton aria-label={t('share_preview')} onClick={() => setPreviewing({ path: entry.path, name: entry.name })}>
                          <MdiIcon path={mdiEyeOutline} fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    <Tooltip title={t('download')}>
                      <span>
                        <IconButton aria-label={t('download')} disabled={busy !== null} onClick={() => void download(entry.path)}>
                          <MdiIcon path={mdiDownload} fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </Stack>
                }
              >
                <ListItemButton onClick={() => (entry.folder ? setPath(entry.path) : undefined)}>
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <MdiIcon path={entry.folder ? (entry.lock ? mdiFolderLock : mdiFolder) : mdiFileOutline} htmlColor={entry.folder ? '#f5b400' : undefined} />
                  </ListItemIcon>
                  <ListItemText primary={entry.name} secondary={entry.folder ? null : formatBytes(entry.size, locale)} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </>
      )}
      <SharePreviewDialog shareKey={shareKey} shareToken={shareToken} file={previewing} onClose={() => setPreviewing(null)} />
    </Box>
  );
}

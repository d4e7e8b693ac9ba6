import type { FileEntry } from '@bogwan/contracts';
import { mdiDownload, mdiStar } from '@mdi/js';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { formatBytes } from '../../../lib/format-bytes';
import { parentOf } from '../lib/storage-path';
import { FileIcon } from '../../../components/file-icon';
import { LazyTooltip } from '../../../components/lazy-tooltip';

export interface EntryListProps {
  entries: FileEntry[] | undefined;
  loading: boolean;
  error: unknown;
  /** Text and icon when there is nothing. */
  emptyText: string;
  emptyIcon: string;
  /** Shows at most this many entries. */
  limit?: number;
  onOpen: (entry: FileEntry) => void;
  onDownload: (entry: FileEntry) => void;
  label: string;
}

/** A short list of files and folders (Home, Recent, Starred): name, folder, size, date. */
export function EntryList({ entries, loading, error, emptyText, emptyIcon, limit, onOpen, onDownload, label }: EntryListProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (loading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress size={24} aria-label={t('loading')} />
      </Box>
    );
  }
  if (error) {
    return (
      <Typography sx={{ py: 3, textAlign: 'center', color: 'error.main' }}>{messageText(t, error instanceof ApiError ? error.messageKey : null)}</Typography>
    );
  }
  const shown = (entries ?? []).slice(0, limit ?? Number.POSITIVE_INFINITY);
  if (shown.length === 0) {
    return (
      <Box sx={{ py: 5, textAlign: 'center', color: 'text.secondary' }}>
        <MdiIcon path={emptyIcon} sx={{ fontSize: 40, opacity: 0.5, mb: 1 }} />
        <Typography variant="body2">{emptyText}</Typography>
      </Box>
    );
  }
  return (
    <List aria-label={label} disablePadding>
      {shown.map((entry) => (
        <ListItem
          key={entry._id}
          disablePadding
          secondaryAction={
            entry.folder ? undefined : (
              <LazyTooltip title={t('download')}>
                <IconButton edge="end" aria-label={`${t('download')} ${entry.name}`} onClick={() => onDownload(entry)}>
                  <MdiIcon path={mdiDownload} fontSize="small" />
                </IconButton>
              </LazyTooltip>
            )
          }
        >
          <ListItemButton onClick={() => onOpen(entry)} sx={{ borderRadius: 1.5 }}>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <FileIcon name={entry.name} folder={entry.folder} lock={entry.lock} />
            </ListItemIcon>
            <ListItemText
              primary={
                <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}>
                  <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                    {entry.name}
                  </Box>
                  {entry.starred && <MdiIcon path={mdiStar} htmlColor="#fbc02d" sx={{ fontSize: 16 }} />}
                </Box>
              }
              secondary={[parentOf(entry.path), entry.folder ? null : formatBytes(entry.size, locale), formatDateTime(entry.mtime, locale)]
                .filter(Boolean)
                .join(' · ')}
              slotProps={{ secondary: { noWrap: true } }}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

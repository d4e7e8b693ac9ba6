import { mdiFileOutline, mdiFolderOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { ApiError } from '../../../api/client';
import { useItems } from '../api/runs';
import { formatBytes } from '../../../lib/format-bytes';

export interface ItemBrowserProps {
  runId: string;
  selected: string[];
  onChange: (selected: string[]) => void;
}

/** Browses a snapshot folder by folder; ticking a folder restores everything in it. */
export function ItemBrowser({ runId, selected, onChange }: ItemBrowserProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [path, setPath] = useState('');
  const items = useItems(runId, path);
  const segments = path === '' ? [] : path.split('/');
  const coveredBy = (p: string) => selected.some((s) => p === s || p.startsWith(`${s}/`));
  const toggle = (p: string, on: boolean) => onChange(on ? [...selected.filter((s) => !s.startsWith(`${p}/`)), p] : selected.filter((s) => s !== p));

  return (
    <Box>
      <Breadcrumbs aria-label={t('restore_browse')} sx={{ mb: 1 }}>
        <Link component="button" type="button" underline="hover" onClick={() => setPath('')}>
          {t('restore_snapshot_top')}
        </Link>
        {segments.map((name, i) => (
          <Link key={i} component="button" type="button" underline="hover" onClick={() => setPath(segments.slice(0, i + 1).join('/'))}>
            {name}
          </Link>
        ))}
      </Breadcrumbs>
      {items.isPending && <CircularProgress size={24} aria-label={t('loading')} />}
      {items.isError && (
        <Typography color="error" role="alert">
          {messageText(t, items.error instanceof ApiError ? items.error.messageKey : null)}
        </Typography>
      )}
      {items.data?.length === 0 && <Typography sx={{ color: 'text.secondary', py: 2 }}>{t('no_data')}</Typography>}
      <List dense sx={{ maxHeight: 360, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1, py: 0 }} aria-label={t('restore_items')}>
        {items.data?.map((item) => {
          const inherited = coveredBy(item.path) && !selected.includes(item.path);
          return (
            <ListItem key={item.path} disablePadding data-item-path={item.path}>
              <Checkbox
                edge="start"
                sx={{ ml: 1 }}
                checked={coveredBy(item.path)}
                disabled={inherited}
                onChange={(event) => toggle(item.path, event.target.checked)}
                slotProps={{ input: { 'aria-label': item.name } }}
              />
              <ListItemButton disabled={!item.folder} onClick={() => setPath(item.path)} sx={{ '&.Mui-disabled': { opacity: 1 } }}>
                <ListItemIcon sx={{ minWidth: 32 }}>
                  <MdiIcon path={item.folder ? mdiFolderOutline : mdiFileOutline} fontSize="small" />
                </ListItemIcon>
                <ListItemText
                  primary={item.name}
                  secondary={[item.folder ? null : formatBytes(item.size, locale), formatDateTime(item.mtime, locale), item.owner].filter(Boolean).join(' · ')}
                />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}

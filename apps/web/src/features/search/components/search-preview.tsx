import { SEARCH_MIN_LENGTH, SEARCH_PREVIEW_MAX_HEIGHT, type SearchResult } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { NavItem } from '../../../app/layouts/main-layout/nav-items';
import { MdiIcon } from '../../../components/mdi-icon';
import { SearchResultItem } from './search-result-item';

const length = (s: string) => [...s.trim()].length;

interface SearchPreviewProps {
  open: boolean;
  anchor: HTMLElement | null;
  /** The text in the box, and trimmed. */
  value: string;
  term: string;
  waiting: boolean;
  services: NavItem[];
  shownServices: NavItem[];
  allServices: boolean;
  onToggleServices: () => void;
  folders: SearchResult[];
  files: SearchResult[];
  hasAnything: boolean;
  onOpenService: (item: NavItem) => void;
  onOpenResult: (index: number, list: SearchResult[]) => void;
  onShowAll: () => void;
}

/** The top-bar search's preview under the box: services, folders and files, and 'all results'. */
export function SearchPreview(props: SearchPreviewProps) {
  const {
    open,
    anchor,
    value,
    term,
    waiting,
    services,
    shownServices,
    allServices,
    onToggleServices,
    folders,
    files,
    hasAnything,
    onOpenService,
    onOpenResult,
    onShowAll,
  } = props;
  const { t } = useTranslation();
  return (
    <Popper open={open} anchorEl={anchor} placement="bottom-end" sx={{ zIndex: (theme) => theme.zIndex.modal }}>
      <Paper
        elevation={8}
        data-testid="search-preview"
        sx={{ mt: 0.5, width: { xs: 300, sm: 420 }, maxHeight: SEARCH_PREVIEW_MAX_HEIGHT, overflowY: 'auto', borderRadius: 2 }}
      >
        {waiting && <LinearProgress aria-label={t('search_searching')} sx={{ height: 2 }} />}
        <List dense disablePadding>
          {services.length > 0 && (
            <>
              <ListSubheader sx={{ lineHeight: '32px', display: 'flex', alignItems: 'center' }}>
                <Box sx={{ flexGrow: 1 }}>{t('search_services')}</Box>
                {services.length > 1 && (
                  <Button size="small" onClick={() => onToggleServices()}>
                    {allServices ? t('search_show_less') : t('search_show_all_services', { n: services.length })}
                  </Button>
                )}
              </ListSubheader>
              {shownServices.map((item) => (
                <ListItemButton key={item.path} onClick={() => onOpenService(item)} data-testid="search-service">
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <MdiIcon path={item.icon} fontSize="small" />
                  </ListItemIcon>
                  <ListItemText primary={t(item.label)} />
                </ListItemButton>
              ))}
            </>
          )}
          {folders.length > 0 && (
            <>
              <ListSubheader sx={{ lineHeight: '32px' }}>{t('search_folders')}</ListSubheader>
              {folders.map((result, i) => (
                <SearchResultItem key={result._id} dense result={result} term={term} onOpen={() => onOpenResult(i, folders)} />
              ))}
            </>
          )}
          {files.length > 0 && (
            <>
              <ListSubheader sx={{ lineHeight: '32px' }}>{t('search_files')}</ListSubheader>
              {files.map((result, i) => (
                <SearchResultItem key={result._id} dense result={result} term={term} onOpen={() => onOpenResult(i, files)} />
              ))}
            </>
          )}
        </List>
        {!hasAnything && !waiting && (
          <Typography variant="body2" sx={{ p: 2, color: 'text.secondary' }}>
            {length(value) < SEARCH_MIN_LENGTH ? t('search_min_length') : t('no_search_result')}
          </Typography>
        )}
        {length(value) >= SEARCH_MIN_LENGTH && (
          <>
            <Divider />
            <Button fullWidth onClick={onShowAll} sx={{ py: 1 }}>
              {t('search_all_results')}
            </Button>
          </>
        )}
      </Paper>
    </Popper>
  );
}

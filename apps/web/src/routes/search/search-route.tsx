import { FILE_CATEGORIES, SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH, SEARCH_RESULTS_MAX, type SearchQuery, type SearchResult } from '@bogwan/contracts';
import { mdiMagnify } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useFileActions } from '../../app/file-actions';
import { MdiIcon } from '../../components/mdi-icon';
import { Tag } from '../../components/tag';
import { OutlinedField } from '../../components/outlined-field';
import { useKeywordSearch } from '../../features/search/api/search-keyword';
import { SearchResultItem } from '../../features/search/components/search-result-item';
import { toEntry } from '../../features/search/lib/to-entry';
import { formatDateTime } from '../../i18n/format-time';
import { k, messageText } from '../../i18n/keys';
import { useLocale } from '../../i18n/use-locale';

const TYPE_LABELS = {
  folder: k('search_type_folder'),
  image: k('search_type_image'),
  text: k('search_type_text'),
  video: k('search_type_video'),
  audio: k('search_type_audio'),
  compressed: k('search_type_compressed'),
  source: k('search_type_source'),
  word: k('search_type_word'),
  pdf: k('search_type_pdf'),
  excel: k('search_type_excel'),
  hwp: k('search_type_hwp'),
  url: k('search_type_url'),
  file: k('search_type_file'),
} as const;
const TYPES = ['folder', ...FILE_CATEGORIES] as const;

/** /search?q=…: every match the top bar preview has no room for, with type, folder and date filters. */
export function SearchRoute() {
  const { t } = useTranslation();
  const locale = useLocale();
  const actions = useFileActions();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const type = params.get('type') ?? '';
  const folder = params.get('folder') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const [draft, setDraft] = useState(q);
  const [folderDraft, setFolderDraft] = useState(folder);
  useEffect(() => setDraft(q), [q]);
  useEffect(() => setFolderDraft(folder), [folder]);
  useEffect(() => {
    document.title = `${t('search_title')} · ${t('app_title')}`;
  }, [t]);

  const search = useKeywordSearch({
    keyword: q,
    limit: SEARCH_RESULTS_MAX,
    type: searchTypeOf(type),
    folder: folder || undefined,
    from: from || undefined,
    to: to || undefined,
  });
  const tooShort = [...q.trim()].length < SEARCH_MIN_LENGTH;
  const results: SearchResult[] = tooShort ? [] : (search.data ?? []);

  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setParams(next, { replace: true });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: draft.trim(), folder: folderDraft.trim() });
  };
  const error = search.error instanceof ApiError ? search.error.messageKey : search.error ? 'request_error_message' : null;

  return (
    <Box component="section" sx={{ maxWidth: 960, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('search_title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('search_description')}
      </Typography>
      <Paper variant="outlined" component="form" onSubmit={submit} sx={{ borderRadius: 2, p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 1.5 }}>
          <OutlinedField
            label={t('search_keyword')}
            value={draft}
            onChange={(event) => setDraft(event.target.value.slice(0, SEARCH_MAX_LENGTH))}
            size="small"
            fullWidth
            inputProps={{ maxLength: SEARCH_MAX_LENGTH, 'data-testid': 'search-page-input' }}
          />
          <Button type="submit" variant="contained" startIcon={<MdiIcon path={mdiMagnify} />} sx={{ flexShrink: 0 }}>
            {t('search_submit')}
          </Button>
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {/* A native select: the page loads no menu code for it. */}
          <OutlinedField
            label={t('search_filter_type')}
            value={type}
            onChange={(event) => set({ type: event.target.value })}
            size="small"
            shrink
            sx={{ minWidth: 150 }}
            options={
              <>
                <option value="">{t('search_filter_any')}</option>
                {TYPES.map((value) => (
                  <option key={value} value={value}>
                    {t(TYPE_LABELS[value])}
                  </option>
                ))}
              </>
            }
          />
          <OutlinedField
            label={t('search_filter_folder')}
            placeholder="/"
            value={folderDraft}
            onChange={(event) => setFolderDraft(event.target.value)}
            onBlur={() => set({ folder: folderDraft.trim() })}
            size="small"
            sx={{ flexGrow: 1 }}
          />
          <OutlinedField type="date" label={t('search_filter_from')} value={from} onChange={(event) => set({ from: event.target.value })} size="small" shrink />
          <OutlinedField type="date" label={t('search_filter_to')} value={to} onChange={(event) => set({ to: event.target.value })} size="small" shrink />
          {(type || folder || from || to) && (
            <Button onClick={() => set({ type: '', folder: '', from: '', to: '' })} sx={{ flexShrink: 0 }}>
              {t('search_filter_reset')}
            </Button>
          )}
        </Stack>
      </Paper>

      {tooShort ? (
        <Alert severity="info">{t('search_keyword_length')}</Alert>
      ) : error ? (
        <Alert severity="error">{messageText(t, error)}</Alert>
      ) : (
        <Paper variant="outlined" sx={{ borderRadius: 2, p: 1 }} aria-busy={search.isFetching}>
          <Typography variant="body2" sx={{ px: 1, py: 0.5, color: 'text.secondary' }} data-testid="search-count">
            {search.isPending ? t('search_searching') : t('search_result_count', { n: results.length })}
          </Typography>
          {results.length === SEARCH_RESULTS_MAX && (
            <Alert severity="info" sx={{ mx: 1, mb: 1 }}>
              {t('search_results_limited', { n: SEARCH_RESULTS_MAX })}
            </Alert>
          )}
          {!search.isPending && results.length === 0 ? (
            <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }}>{t('no_search_result')}</Typography>
          ) : (
            <List aria-label={t('search_title')}>
              {results.map((result) => (
                <Box component="li" key={result._id} sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
                  <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                    <SearchResultItem result={result} term={q} onOpen={() => actions.open(toEntry(result))} />
                  </Box>
                  <Tag variant="outlined" label={result.match === 'name' ? t('search_match_name') : t('search_match_content')} />
                  <Typography variant="caption" sx={{ color: 'text.secondary', width: 150, textAlign: 'right', display: { xs: 'none', md: 'block' } }}>
                    {formatDateTime(result.mtime, locale)}
                  </Typography>
                </Box>
              ))}
            </List>
          )}
        </Paper>
      )}
      {actions.overlay}
    </Box>
  );
}

/** The type filters the contract accepts: every file category, and folders. */
const SEARCH_TYPES: readonly NonNullable<SearchQuery['type']>[] = [...FILE_CATEGORIES, 'folder'];

/** The address's type filter as the contract's value; an unknown one filters nothing. */
function searchTypeOf(value: string): SearchQuery['type'] {
  // Checked against the list, not the schema: the built app's schemas check nothing (build/unchecked-zod.ts).
  return SEARCH_TYPES.find((type) => type === value);
}

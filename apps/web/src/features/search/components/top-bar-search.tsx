import { SEARCH_DELAY_MS, SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH, SEARCH_PREVIEW_LIMIT } from '@bogwan/contracts';
import { mdiMagnify } from '@mdi/js';
import Box from '@mui/material/Box';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import InputBase from '@mui/material/InputBase';
import { lazy, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFileActions } from '../../../app/file-actions';
import type { NavItem } from '../../../app/layouts/main-layout/nav-items';
import { Deferred } from '../../../components/deferred';
import { MdiIcon } from '../../../components/mdi-icon';
import { useLocalePath } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { useKeywordSearch } from '../api/search-keyword';
import { enterTarget, type EnterTarget } from '../lib/enter-target';
import { navMatches, visibleNavItems } from '../lib/nav-matches';
import { toEntry } from '../lib/to-entry';
import { useDebounced } from '../lib/use-debounced';

// The preview (its popper and lists) loads its code when the box is first focused.
const SearchPreview = lazy(() => import('./search-preview').then((m) => ({ default: m.SearchPreview })));

const length = (s: string) => [...s.trim()].length;

/**
 * The top-bar search: navigation entries match at once; from 2 characters, after 500 ms,
 * files and folders too (name, then content). The preview lists services (one, or all
 * when expanded), folders and files; Enter opens the first match of the text in the box,
 * waiting for its file and folder matches when they are not in yet.
 */
export function TopBarSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const actions = useFileActions();
  const roleLevel = useAuth()?.user.roleLevel ?? 1;
  const anchor = useRef<HTMLDivElement>(null);
  const [value, setValue] = useState('');
  const [open, setOpen] = useState(false);
  const [allServices, setAllServices] = useState(false);
  /** Enter was pressed for this text before its matches came in. */
  const [enterFor, setEnterFor] = useState<string | null>(null);
  const keyword = useDebounced(value, SEARCH_DELAY_MS);
  const ready = length(keyword) >= SEARCH_MIN_LENGTH && length(value) >= SEARCH_MIN_LENGTH;
  const search = useKeywordSearch({ keyword: ready ? keyword : '', limit: SEARCH_PREVIEW_LIMIT });

  const services = navMatches(visibleNavItems(roleLevel), value, (item) => t(item.label));
  const shownServices = allServices ? services : services.slice(0, 1);
  const results = ready ? (search.data ?? []) : [];
  const folders = results.filter((r) => r.folder);
  const files = results.filter((r) => !r.folder);
  const term = value.trim();
  const current = ready && keyword.trim() === term;
  const target = enterTarget({
    term,
    services,
    results,
    resultsFor: current && search.data !== undefined && !search.isPlaceholderData ? term : null,
    failed: current && search.isError,
  });

  const close = () => {
    setOpen(false);
    setAllServices(false);
    setEnterFor(null);
  };
  const openService = (item: NavItem) => {
    close();
    void navigate(localePath(item.path));
  };
  const openResult = (index: number, list = results) => {
    const result = list[index];
    if (!result) return;
    close();
    actions.open(toEntry(result));
  };
  const showAll = () => {
    if (length(value) < SEARCH_MIN_LENGTH) return;
    close();
    void navigate(`${localePath('/search')}?q=${encodeURIComponent(term)}`);
  };

  const openTarget = (chosen: EnterTarget<NavItem>) => {
    if (chosen.kind === 'service') openService(chosen.service);
    else if (chosen.kind === 'result') openResult(0, [chosen.result]);
    else if (chosen.kind === 'all') showAll();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') close();
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (target.kind === 'wait') setEnterFor(term);
    else openTarget(target);
  };

  // A waiting Enter is carried out once the matches of its text are in (typing on drops it).
  // The effect reads this render's openTarget (it closes over this render's navigation state).
  const openTargetRef = useRef(openTarget);
  useEffect(() => {
    openTargetRef.current = openTarget;
  });
  useEffect(() => {
    if (enterFor === null) return;
    if (enterFor !== term) setEnterFor(null);
    else if (target.kind !== 'wait') openTargetRef.current(target);
  }, [enterFor, term, target]);

  const hasAnything = services.length > 0 || results.length > 0;
  const waiting = length(value) >= SEARCH_MIN_LENGTH && (!ready || search.isFetching);

  return (
    <>
      <ClickAwayListener onClickAway={close}>
        <Box>
          <Box
            ref={anchor}
            role="search"
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 0.5,
              px: 1.25,
              height: 36,
              width: { xs: 150, sm: 260, md: 320 },
              borderRadius: 2,
              bgcolor: 'action.hover',
              '&:focus-within': { bgcolor: 'action.selected' },
            }}
          >
            <MdiIcon path={mdiMagnify} fontSize="small" sx={{ color: 'text.secondary' }} />
            <InputBase
              value={value}
              placeholder={t('search_placeholder')}
              onChange={(event) => {
                setValue(event.target.value.slice(0, SEARCH_MAX_LENGTH));
                setOpen(true);
              }}
              onFocus={() => setOpen(true)}
              onKeyDown={onKeyDown}
              inputProps={{ maxLength: SEARCH_MAX_LENGTH, 'aria-label': t('search_placeholder'), 'data-testid': 'top-search-input' }}
              sx={{ flexGrow: 1, fontSize: 14 }}
            />
          </Box>
          <Deferred open={open}>
            <SearchPreview
              open={open && term.length > 0}
              anchor={anchor.current}
              value={value}
              term={term}
              waiting={waiting}
              services={services}
              shownServices={shownServices}
              allServices={allServices}
              onToggleServices={() => setAllServices(!allServices)}
              folders={folders}
              files={files}
              hasAnything={hasAnything}
              onOpenService={openService}
              onOpenResult={openResult}
              onShowAll={showAll}
            />
          </Deferred>
        </Box>
      </ClickAwayListener>
      {actions.overlay}
    </>
  );
}

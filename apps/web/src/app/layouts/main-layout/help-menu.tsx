import { mdiHelpCircleOutline } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Deferred } from '../../../components/deferred';
import { MdiIcon } from '../../../components/mdi-icon';

// The menu's code arrives when it is first opened.
const HelpMenuList = lazy(() => import('./help-menu-list').then((m) => ({ default: m.HelpMenuList })));

/** Top-bar help: opens the notice drawer, the user guide or the manual (both PDFs, downloadable there). */
export function HelpMenu() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);

  return (
    <>
      <LazyTooltip title={t('help_menu')}>
        <IconButton
          aria-label={t('help_menu')}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <MdiIcon path={mdiHelpCircleOutline} />
        </IconButton>
      </LazyTooltip>
      <Deferred open={Boolean(anchor)}>
        <HelpMenuList anchor={anchor} onClose={close} />
      </Deferred>
    </>
  );
}

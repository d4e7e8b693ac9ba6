import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { TabStrip } from '../../components/tab-strip';
import { PlanList } from '../../features/snapshots/components/plan-list';
import { CatalogueParts } from '../../i18n/catalogue-parts-gate';

// The runs tab loads its code (the paged table) when first shown.
const RunTable = lazy(() => import('../../features/snapshots/components/run-table').then((m) => ({ default: m.RunTable })));

/** /snapshot (administrators): plans with their schedules, and the history of runs. The tab index is kept in `?tab=`. */
export function SnapshotRoute() {
  return (
    <Suspense fallback={null}>
      <CatalogueParts parts={['snapshot']}>
        <SnapshotRoutePage />
      </CatalogueParts>
    </Suspense>
  );
}

/** The page itself, drawn once the texts it reads are there. */
function SnapshotRoutePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === '1' ? 1 : 0;
  useEffect(() => {
    document.title = `${t('nav_snapshot')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 1200, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_snapshot')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('snapshot_description')}
      </Typography>
      <TabStrip
        labels={[t('snapshot_plans'), t('snapshot_runs')]}
        value={tab}
        onChange={(next) => setParams(next === 0 ? {} : { tab: String(next) })}
        sx={{ mb: 2 }}
      />
      {tab === 0 ? (
        <PlanList />
      ) : (
        <Suspense fallback={null}>
          <RunTable />
        </Suspense>
      )}
    </Box>
  );
}

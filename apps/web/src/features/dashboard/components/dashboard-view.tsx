import type { Dashboard } from '@bogwan/contracts';
import { mdiRefresh } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useDashboard } from '../api/get-dashboard';
import { DashboardCard } from './dashboard-card';
import { LicenceCard, SnapshotCard, TasksCard } from './status-cards';
import { LazyTooltip } from '../../../components/lazy-tooltip';

// The chart library is large: it arrives in its own chunk while the cards already show.
const charts = () => import('./dashboard-charts');
const BackendGauge = lazy(() => charts().then((m) => ({ default: m.BackendGauge })));
const RootUsageChart = lazy(() => charts().then((m) => ({ default: m.RootUsageChart })));
const AccountsChart = lazy(() => charts().then((m) => ({ default: m.AccountsChart })));
const TransfersChart = lazy(() => charts().then((m) => ({ default: m.TransfersChart })));

function ChartFallback({ height = 160 }: { height?: number }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ height, display: 'grid', placeItems: 'center' }}>
      <CircularProgress size={24} aria-label={t('loading')} />
    </Box>
  );
}

function Charts({ children, height }: { children: ReactNode; height?: number }) {
  return <Suspense fallback={<ChartFallback height={height} />}>{children}</Suspense>;
}

function DashboardGrid({ data }: { data: Dashboard }) {
  const { t } = useTranslation();
  const totals = data.transfers.days.reduce(
    (sum, d) => ({ uploads: sum.uploads + d.uploads, downloads: sum.downloads + d.downloads, previews: sum.previews + d.previews }),
    { uploads: 0, downloads: 0, previews: 0 },
  );
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
      <Box sx={{ gridColumn: { md: 'span 2', lg: 'span 3' } }}>
        <DashboardCard id="storage" title={t('dashboard_storage')}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 2fr) minmax(0, 3fr)' }, alignItems: 'start' }}>
            <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' }}>
              <Charts>
                {data.storage.backends.map((backend) => (
                  <BackendGauge key={backend.backend} backend={backend} />
                ))}
              </Charts>
            </Box>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle2" sx={{ fontWeight: 700 }}>
                {t('dashboard_roots')}
              </Typography>
              {data.storage.roots.length === 0 ? (
                <Typography variant="body2" sx={{ color: 'text.secondary', py: 2 }}>
                  {t('dashboard_no_roots')}
                </Typography>
              ) : (
                <Charts>
                  <RootUsageChart roots={data.storage.roots} />
                </Charts>
              )}
            </Box>
          </Box>
        </DashboardCard>
      </Box>
      <Box sx={{ gridColumn: { md: 'span 2', lg: 'span 2' } }}>
        <DashboardCard id="transfers" title={t('dashboard_transfers')}>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: -1 }} data-testid="transfer-totals">
            {[
              t('dashboard_uploads_count', { count: totals.uploads }),
              t('dashboard_downloads_count', { count: totals.downloads }),
              t('dashboard_previews_count', { count: totals.previews }),
            ].join(' · ')}
          </Typography>
          <Charts height={300}>
            <TransfersChart days={data.transfers.days} />
          </Charts>
        </DashboardCard>
      </Box>
      <DashboardCard id="accounts" title={t('dashboard_accounts', { n: data.accounts.total })}>
        <Charts height={140}>
          <AccountsChart accounts={data.accounts} />
        </Charts>
      </DashboardCard>
      <TasksCard tasks={data.tasks} />
      <SnapshotCard snapshot={data.snapshot} />
      <LicenceCard licence={data.licence} />
    </Box>
  );
}

/** The administrators' dashboard: storage, accounts, transfers, tasks, backups and licence. */
export function DashboardView() {
  const { t } = useTranslation();
  const locale = useLocale();
  const dashboard = useDashboard();
  let body: ReactNode;
  if (dashboard.isPending) {
    body = <ChartFallback height={320} />;
  } else if (dashboard.isError) {
    body = <Alert severity="error">{messageText(t, dashboard.error instanceof ApiError ? dashboard.error.messageKey : null)}</Alert>;
  } else {
    body = <DashboardGrid data={dashboard.data} />;
  }
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', flexGrow: 1 }}>
          {dashboard.data ? t('dashboard_updated_at', { time: formatDateTime(dashboard.data.generatedAt, locale) }) : t('dashboard_description')}
        </Typography>
        <LazyTooltip title={t('refresh')}>
          <IconButton aria-label={t('refresh')} onClick={() => void dashboard.refetch()} disabled={dashboard.isFetching}>
            <MdiIcon path={mdiRefresh} />
          </IconButton>
        </LazyTooltip>
      </Box>
      {body}
    </Box>
  );
}

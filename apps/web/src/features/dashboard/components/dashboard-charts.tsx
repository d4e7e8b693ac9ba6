import type { Dashboard, DashboardBackend, DashboardRoot } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { Gauge, gaugeClasses } from '@mui/x-charts/Gauge';
import { PieChart } from '@mui/x-charts/PieChart';
import { useTranslation } from 'react-i18next';
import { useFormatBytes } from '../../../lib/format-bytes';
import { k } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { backendGauge, rootBars } from '../lib/storage-figures';

// This module holds everything that needs @mui/x-charts; the dashboard loads it lazily.

const STATUS_LABELS = { ACTIVE: k('dashboard_status_active'), BLOCK: k('dashboard_status_block'), PENDING: k('dashboard_status_pending') } as const;
const ROLE_LABELS = { MASTER: k('dashboard_role_master'), ADMIN: k('dashboard_role_admin'), USER: k('dashboard_role_user') } as const;
const BACKEND_LABELS = { server: k('dashboard_backend_server'), cloud: k('dashboard_backend_cloud') } as const;

/** One backend: the disk under it (server) or its roots' limits (cloud) as a gauge, with Bogwan's own share apart. */
export function BackendGauge({ backend }: { backend: DashboardBackend }) {
  const { t } = useTranslation();
  const formatBytes = useFormatBytes();
  const { basis, percent } = backendGauge(backend);
  const caption = { variant: 'caption', sx: { color: 'text.secondary', textAlign: 'center' } } as const;
  return (
    <Box
      role="figure"
      aria-label={t(BACKEND_LABELS[backend.backend])}
      data-testid={`chart-backend-${backend.backend}`}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', minWidth: 0 }}
    >
      <Typography variant="subtitle2" sx={{ fontWeight: 700 }}>
        {t(BACKEND_LABELS[backend.backend])}
      </Typography>
      <Gauge
        height={150}
        value={percent ?? 0}
        startAngle={-110}
        endAngle={110}
        innerRadius="72%"
        text={percent === null ? '—' : `${percent.toFixed(1)}%`}
        sx={{ [`& .${gaugeClasses.valueText}`]: { fontSize: 20, fontWeight: 700 } }}
      />
      {basis === 'disk' && backend.disk ? (
        <>
          <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center' }} data-testid={`disk-${backend.backend}`}>
            {t('dashboard_disk_used_of', { used: formatBytes(backend.disk.used), total: formatBytes(backend.disk.total) })}
          </Typography>
          <Typography {...caption}>{t('dashboard_free', { free: formatBytes(backend.disk.free) })}</Typography>
        </>
      ) : (
        <>
          <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center' }}>
            {backend.limit === null
              ? t('dashboard_used_of_unlimited', { used: formatBytes(backend.used) })
              : t('dashboard_used_of', { used: formatBytes(backend.used), total: formatBytes(backend.limit) })}
          </Typography>
          <Typography {...caption}>{backend.free === null ? t('dashboard_free_unknown') : t('dashboard_free', { free: formatBytes(backend.free) })}</Typography>
        </>
      )}
      {basis === 'disk' && (
        <Typography {...caption} data-testid={`own-share-${backend.backend}`}>
          {backend.limit === null
            ? t('dashboard_own_share', { used: formatBytes(backend.used) })
            : t('dashboard_own_share_of_limit', { used: formatBytes(backend.used), limit: formatBytes(backend.limit) })}
        </Typography>
      )}
    </Box>
  );
}

/** The parts of a root's usage, in the order they are stacked. */
const USAGE_PARTS = [
  { part: 'live', label: k('usage_live') },
  { part: 'versions', label: k('usage_versions') },
  { part: 'trash', label: k('usage_trash') },
] as const;

/** Usage per root folder (live files, versions, trash), with the room left under its limit stacked after it. */
export function RootUsageChart({ roots }: { roots: DashboardRoot[] }) {
  const { t } = useTranslation();
  const formatBytes = useFormatBytes();
  const theme = useTheme();
  const bars = rootBars(roots);
  return (
    <Box data-testid="chart-roots" role="figure" aria-label={t('dashboard_roots')}>
      <BarChart
        layout="horizontal"
        height={Math.max(160, 44 * bars.length + 80)}
        yAxis={[{ scaleType: 'band', data: bars.map((b) => b.name), width: 110 }]}
        xAxis={[{ valueFormatter: (value: number) => formatBytes(value) }]}
        series={[
          ...USAGE_PARTS.map(({ part, label }, index) => ({
            id: part,
            label: t(label),
            data: bars.map((b) => b[part]),
            stack: 'root',
            color: [theme.palette.primary.main, theme.palette.secondary.main, theme.palette.warning.main][index],
            valueFormatter: (value: number | null) => (value === null ? '' : formatBytes(value)),
          })),
          {
            id: 'free',
            label: t('dashboard_left_to_limit'),
            data: bars.map((b) => b.free),
            stack: 'root',
            color: theme.palette.action.disabledBackground,
            valueFormatter: (value) => (value === null ? '' : formatBytes(value)),
          },
        ]}
        margin={{ left: 8, right: 24 }}
      />
    </Box>
  );
}

/** Accounts by status and by role, as two rings. */
export function AccountsChart({ accounts }: { accounts: Dashboard['accounts'] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const status = (Object.keys(STATUS_LABELS) as (keyof typeof STATUS_LABELS)[]).map((key, index) => ({
    id: key,
    value: accounts.byStatus[key],
    label: t(STATUS_LABELS[key]),
    color: [theme.palette.success.main, theme.palette.error.main, theme.palette.warning.main][index],
  }));
  const roles = (Object.keys(ROLE_LABELS) as (keyof typeof ROLE_LABELS)[]).map((key, index) => ({
    id: key,
    value: accounts.byRole[key],
    label: t(ROLE_LABELS[key]),
    color: [theme.palette.secondary.main, theme.palette.primary.main, theme.palette.info.light][index],
  }));
  const ring = (id: string, label: string, data: { id: string; value: number; label: string; color: string | undefined }[]) => (
    <Box role="figure" aria-label={label} data-testid={`chart-accounts-${id}`} sx={{ flex: '1 1 200px', minWidth: 0 }}>
      <Typography variant="subtitle2" sx={{ fontWeight: 700, textAlign: 'center' }}>
        {label}
      </Typography>
      <PieChart
        height={140}
        series={[{ data: data.filter((d) => d.value > 0), innerRadius: 36, outerRadius: 60, paddingAngle: 2, cornerRadius: 3 }]}
        slotProps={{ legend: { direction: 'vertical', position: { vertical: 'middle', horizontal: 'end' } } }}
      />
    </Box>
  );
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
      {ring('status', t('dashboard_accounts_by_status'), status)}
      {ring('role', t('dashboard_accounts_by_role'), roles)}
    </Box>
  );
}

/** Uploads, downloads and previews per day over the last 30 days. */
export function TransfersChart({ days }: { days: Dashboard['transfers']['days'] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const locale = useLocale();
  const dayLabel = new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : 'ko-KR', { month: 'numeric', day: 'numeric', timeZone: 'UTC' });
  const label = (date: string) => dayLabel.format(new Date(`${date}T00:00:00Z`));
  // Counts are whole numbers from 0; a month without transfers keeps a 0–1 scale instead of a collapsed axis.
  const quiet = days.every((d) => d.uploads + d.downloads + d.previews === 0);
  return (
    <Box data-testid="chart-transfers" role="figure" aria-label={t('dashboard_transfers')}>
      <BarChart
        height={300}
        xAxis={[{ scaleType: 'band', data: days.map((d) => d.date), valueFormatter: (date: string) => label(date), tickLabelMinGap: 8 }]}
        yAxis={[{ tickMinStep: 1, width: 36, min: 0, max: quiet ? 1 : undefined, valueFormatter: (value: number) => Math.round(value).toLocaleString() }]}
        series={[
          { id: 'uploads', label: t('dashboard_uploads'), data: days.map((d) => d.uploads), color: theme.palette.primary.main },
          { id: 'downloads', label: t('dashboard_downloads'), data: days.map((d) => d.downloads), color: theme.palette.success.main },
          { id: 'previews', label: t('dashboard_previews'), data: days.map((d) => d.previews), color: theme.palette.warning.light },
        ]}
        margin={{ left: 4, right: 8 }}
      />
    </Box>
  );
}

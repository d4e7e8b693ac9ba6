import type { Dashboard, DashboardBackend, DashboardRoot } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { useFormatBytes } from '../../../lib/format-bytes';
import { k } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { backendGauge, rootBars } from '../lib/storage-figures';
import { arcPath, niceMax, ringSegments } from '../lib/chart-geometry';

// The dashboard's charts, drawn as plain SVG and boxes: a chart library weighed 97 KB gzip
// for four simple figures. Each figure has a label, and every mark a <title> with its
// value (shown on hover and read by screen readers).

const STATUS_LABELS = { ACTIVE: k('dashboard_status_active'), BLOCK: k('dashboard_status_block'), PENDING: k('dashboard_status_pending') } as const;
const ROLE_LABELS = { MASTER: k('dashboard_role_master'), ADMIN: k('dashboard_role_admin'), USER: k('dashboard_role_user') } as const;
const BACKEND_LABELS = { server: k('dashboard_backend_server'), cloud: k('dashboard_backend_cloud') } as const;

/** One backend: the disk under it (server) or its roots' limits (cloud) as a gauge, with Bogwan's own share apart. */
export function BackendGauge({ backend }: { backend: DashboardBackend }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const formatBytes = useFormatBytes();
  const { basis, percent } = backendGauge(backend);
  const caption = { variant: 'caption', sx: { color: 'text.secondary', textAlign: 'center' } } as const;
  const text = percent === null ? '—' : `${percent.toFixed(1)}%`;
  // An arc from -110° to 110°, filled up to the percentage.
  const [from, to] = [-110, 110];
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
      <Box component="svg" viewBox="0 0 160 130" role="img" aria-label={text} sx={{ width: '100%', maxWidth: 200, height: 150 }}>
        <path d={arcPath(80, 82, 62, 16, from, to)} fill={theme.palette.action.disabledBackground} />
        {percent !== null && percent > 0 && <path d={arcPath(80, 82, 62, 16, from, from + ((to - from) * percent) / 100)} fill={theme.palette.primary.main} />}
        <text x="80" y="90" textAnchor="middle" fontSize="20" fontWeight="700" fill={theme.palette.text.primary}>
          {text}
        </text>
      </Box>
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
  { part: 'free', label: k('dashboard_left_to_limit') },
] as const;

/** A colour swatch and its label. */
function Legend({ items }: { items: { label: string; color: string }[] }) {
  return (
    <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, listStyle: 'none', p: 0, m: 0, mt: 1 }}>
      {items.map((item) => (
        <Box component="li" key={item.label} sx={{ display: 'flex', alignItems: 'center', gap: 0.75, typography: 'caption' }}>
          <Box sx={{ width: 12, height: 12, borderRadius: 0.5, bgcolor: item.color, flexShrink: 0 }} />
          {item.label}
        </Box>
      ))}
    </Box>
  );
}

/** Usage per root folder (live files, versions, trash), with the room left under its limit stacked after it. */
export function RootUsageChart({ roots }: { roots: DashboardRoot[] }) {
  const { t } = useTranslation();
  const formatBytes = useFormatBytes();
  const theme = useTheme();
  const bars = rootBars(roots);
  const colors = [theme.palette.primary.main, theme.palette.secondary.main, theme.palette.warning.main, theme.palette.action.disabledBackground];
  const largest = Math.max(1, ...bars.map((b) => b.live + b.versions + b.trash + b.free));
  return (
    <Box data-testid="chart-roots" role="figure" aria-label={t('dashboard_roots')} sx={{ pt: 1 }}>
      {bars.map((bar) => (
        <Box key={bar.name} sx={{ display: 'grid', gridTemplateColumns: '110px minmax(0, 1fr)', alignItems: 'center', gap: 1, py: 0.75 }}>
          <Typography variant="body2" noWrap title={bar.name}>
            {bar.name}
          </Typography>
          <Box sx={{ display: 'flex', height: 22, borderRadius: 1, overflow: 'hidden', bgcolor: 'action.hover' }}>
            {USAGE_PARTS.map(({ part, label }, index) =>
              bar[part] > 0 ? (
                <Box
                  key={part}
                  title={`${bar.name} · ${t(label)}: ${formatBytes(bar[part])}`}
                  sx={{ width: `${(bar[part] / largest) * 100}%`, minWidth: 2, bgcolor: colors[index] }}
                />
              ) : null,
            )}
          </Box>
        </Box>
      ))}
      <Legend items={USAGE_PARTS.map(({ label }, index) => ({ label: t(label), color: colors[index]! }))} />
    </Box>
  );
}

/** One ring: its parts as arcs of a circle, with a legend of labels and counts. */
function Ring({ id, label, data }: { id: string; label: string; data: { id: string; value: number; label: string; color: string }[] }) {
  const segments = ringSegments(data.map((d) => d.value));
  return (
    <Box role="figure" aria-label={label} data-testid={`chart-accounts-${id}`} sx={{ flex: '1 1 200px', minWidth: 0 }}>
      <Typography variant="subtitle2" sx={{ fontWeight: 700, textAlign: 'center' }}>
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, height: 140 }}>
        <Box component="svg" viewBox="0 0 120 120" role="img" aria-label={data.map((d) => `${d.label} ${d.value}`).join(', ')} sx={{ width: 120, height: 120 }}>
          <circle cx="60" cy="60" r="48" fill="none" strokeWidth="24" stroke="currentColor" opacity={0.08} />
          {segments.map((segment, index) =>
            segment.length > 0 ? (
              <path key={data[index]!.id} d={arcPath(60, 60, 60, 24, segment.start, segment.start + segment.length)} fill={data[index]!.color}>
                <title>{`${data[index]!.label}: ${data[index]!.value}`}</title>
              </path>
            ) : null,
          )}
        </Box>
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {data.map((d) => (
            <Box component="li" key={d.id} sx={{ display: 'flex', alignItems: 'center', gap: 0.75, typography: 'caption' }}>
              <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: d.color, flexShrink: 0 }} />
              {d.label} {d.value}
            </Box>
          ))}
        </Box>
      </Box>
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
    color: [theme.palette.success.main, theme.palette.error.main, theme.palette.warning.main][index]!,
  }));
  const roles = (Object.keys(ROLE_LABELS) as (keyof typeof ROLE_LABELS)[]).map((key, index) => ({
    id: key,
    value: accounts.byRole[key],
    label: t(ROLE_LABELS[key]),
    color: [theme.palette.secondary.main, theme.palette.primary.main, theme.palette.info.light][index]!,
  }));
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
      <Ring id="status" label={t('dashboard_accounts_by_status')} data={status} />
      <Ring id="role" label={t('dashboard_accounts_by_role')} data={roles} />
    </Box>
  );
}

/** The drawing's size in SVG units; it scales to the card's width. */
const PLOT = { width: 640, height: 260, left: 40, bottom: 24, top: 8 } as const;

/** Uploads, downloads and previews per day over the last 30 days. */
export function TransfersChart({ days }: { days: Dashboard['transfers']['days'] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const locale = useLocale();
  const dayLabel = new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : 'ko-KR', { month: 'numeric', day: 'numeric', timeZone: 'UTC' });
  const label = (date: string) => dayLabel.format(new Date(`${date}T00:00:00Z`));
  const series = [
    { id: 'uploads', label: t('dashboard_uploads'), color: theme.palette.primary.main, value: (d: (typeof days)[number]) => d.uploads },
    { id: 'downloads', label: t('dashboard_downloads'), color: theme.palette.success.main, value: (d: (typeof days)[number]) => d.downloads },
    { id: 'previews', label: t('dashboard_previews'), color: theme.palette.warning.light, value: (d: (typeof days)[number]) => d.previews },
  ];
  // Counts are whole numbers from 0; a month without transfers keeps a 0–1 scale.
  const max = niceMax(Math.max(0, ...days.flatMap((d) => series.map((s) => s.value(d)))));
  const plotWidth = PLOT.width - PLOT.left;
  const plotHeight = PLOT.height - PLOT.top - PLOT.bottom;
  const band = plotWidth / Math.max(1, days.length);
  const barWidth = (band * 0.8) / series.length;
  const y = (value: number) => PLOT.top + plotHeight - (value / max) * plotHeight;
  const ticks = [0, max / 2, max].filter((tick) => Number.isInteger(tick));
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <Box data-testid="chart-transfers" role="figure" aria-label={t('dashboard_transfers')}>
      <Box component="svg" viewBox={`0 0 ${PLOT.width} ${PLOT.height}`} sx={{ width: '100%', height: 'auto', display: 'block', color: 'text.secondary' }}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PLOT.left} x2={PLOT.width} y1={y(tick)} y2={y(tick)} stroke="currentColor" opacity={0.15} />
            <text x={PLOT.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="11" fill="currentColor">
              {tick.toLocaleString()}
            </text>
          </g>
        ))}
        {days.map((day, index) => (
          <g key={day.date}>
            {series.map((s, which) => (
              <rect
                key={s.id}
                className="dashboard-bar"
                x={PLOT.left + index * band + band * 0.1 + which * barWidth}
                y={y(s.value(day))}
                width={barWidth}
                height={(s.value(day) / max) * plotHeight}
                fill={s.color}
              >
                <title>{`${label(day.date)} · ${s.label}: ${s.value(day).toLocaleString()}`}</title>
              </rect>
            ))}
            {index % labelEvery === 0 && (
              <text x={PLOT.left + index * band + band / 2} y={PLOT.height - 6} textAnchor="middle" fontSize="11" fill="currentColor">
                {label(day.date)}
              </text>
            )}
          </g>
        ))}
      </Box>
      <Legend items={series.map((s) => ({ label: s.label, color: s.color }))} />
    </Box>
  );
}

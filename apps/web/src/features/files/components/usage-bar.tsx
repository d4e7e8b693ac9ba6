import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useRootUsage } from '../api/get-root-usage';
import { usagePercent } from '../lib/format';
import { useFormatBytes } from '../../../lib/format-bytes';
import { usageBreakdownText } from '../../../lib/usage-breakdown';
import { usageSummary } from '../lib/usage-summary';

/**
 * Storage used of the total, with the percentage to two decimals (bytes in base 1024),
 * over the root folders that have a limit; each root's figures (live files, versions,
 * trash) in the tooltip. Kept
 * current by the realtime `usage` event (see use-realtime).
 */
export function UsageBar({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const formatBytes = useFormatBytes();
  const usage = useRootUsage();
  if (!usage.data) return null;
  const { used, total, limitedRoots, roots } = usageSummary(usage.data);
  const percent = usagePercent(used, total);
  const summary = total
    ? t('usage_of_total', { used: formatBytes(used), total: formatBytes(total), percent })
    : t('usage_unlimited', { used: formatBytes(used) });
  const details = (
    <Box component="span" sx={{ display: 'block' }}>
      <Box component="span" sx={{ display: 'block', fontWeight: 600 }}>
        {summary}
      </Box>
      {roots.map((root) => (
        <Box component="span" key={root.name} sx={{ display: 'block', mt: 0.5 }}>
          {root.limit === null
            ? t('usage_root_unlimited', { name: root.name, used: formatBytes(root.used) })
            : t('usage_root_limit', { name: root.name, used: formatBytes(root.used), limit: formatBytes(root.limit) })}
          <Box component="span" sx={{ display: 'block', opacity: 0.8 }} data-testid="usage-breakdown">
            {usageBreakdownText(t, formatBytes, root.breakdown)}
          </Box>
        </Box>
      ))}
    </Box>
  );
  const bar = (
    <LinearProgress
      variant="determinate"
      value={percent === null ? 0 : Math.min(100, Number(percent))}
      aria-label={t('usage')}
      color={percent !== null && Number(percent) >= 90 ? 'error' : 'primary'}
      sx={{ height: 6, borderRadius: 3 }}
    />
  );
  if (collapsed) {
    return (
      <LazyTooltip title={details} placement="right">
        <Box sx={{ px: 1.5, py: 1.5 }} data-testid="usage-bar">
          {bar}
        </Box>
      </LazyTooltip>
    );
  }
  return (
    <LazyTooltip title={details} placement="right">
      <Box sx={{ px: 2.5, pt: 1.5, pb: 0.5 }} data-testid="usage-bar">
        <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.75 }}>
          <Typography variant="caption" sx={{ fontWeight: 600 }}>
            {t('usage')}
          </Typography>
          {percent !== null && (
            <Typography variant="caption" sx={{ color: 'text.secondary' }} data-testid="usage-percent">
              {percent}%
            </Typography>
          )}
        </Box>
        {total ? bar : null}
        <Typography variant="caption" component="div" sx={{ color: 'text.secondary', mt: 0.5 }} noWrap data-testid="usage-figures">
          {total ? `${formatBytes(used)} / ${formatBytes(total)}` : summary}
        </Typography>
        {total !== null && limitedRoots < roots.length && (
          <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }} noWrap>
            {t('usage_limited_roots', { count: limitedRoots })}
          </Typography>
        )}
      </Box>
    </LazyTooltip>
  );
}

import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useRootUsage } from '../api/get-root-usage';
import { formatBytes, usagePercent } from '../lib/format';

/** Storage used of the total, with the percentage to two decimals (bytes in base 1024). */
export function UsageBar({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const usage = useRootUsage();
  if (!usage.data) return null;
  const { used, total } = usage.data;
  const percent = usagePercent(used, total);
  const summary = total
    ? t('usage_of_total', { used: formatBytes(used), total: formatBytes(total), percent })
    : t('usage_unlimited', { used: formatBytes(used) });
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
      <Tooltip title={summary} placement="right">
        <Box sx={{ px: 1.5, py: 1.5 }} data-testid="usage-bar">
          {bar}
        </Box>
      </Tooltip>
    );
  }
  return (
    <Box sx={{ px: 2.5, pt: 1.5, pb: 0.5 }} data-testid="usage-bar">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.75 }}>
        <Typography variant="caption" sx={{ fontWeight: 600 }}>
          {t('usage')}
        </Typography>
        {percent !== null && (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {percent}%
          </Typography>
        )}
      </Box>
      {total ? bar : null}
      <Typography variant="caption" component="div" sx={{ color: 'text.secondary', mt: 0.5 }} noWrap title={summary}>
        {total ? `${formatBytes(used)} / ${formatBytes(total)}` : summary}
      </Typography>
    </Box>
  );
}

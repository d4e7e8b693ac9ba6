import type { SystemInfo } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatBytes } from '../../../lib/format-bytes';
import { useSystemInfo } from '../api/get-system-info';
import { formatUptime } from '../lib/uptime';
import { SectionState } from './section-state';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </>
  );
}

function InformationFields({ info }: { info: SystemInfo }) {
  const { t } = useTranslation();
  const formatBytes = useFormatBytes();
  const usedMemory = info.memory.total - info.memory.free;
  const memoryPercent = info.memory.total > 0 ? (usedMemory / info.memory.total) * 100 : 0;
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(8rem, max-content) 1fr', columnGap: 3, rowGap: 1.25, m: 0, maxWidth: 720 }}>
      <Field label={t('system_hostname')}>{info.hostname}</Field>
      <Field label={t('system_platform')}>{info.platform}</Field>
      <Field label={t('system_arch')}>{info.arch}</Field>
      <Field label={t('system_release')}>{info.release}</Field>
      <Field label={t('system_uptime')}>{formatUptime(info.uptime, t)}</Field>
      <Field label={t('system_process_uptime')}>{formatUptime(info.processUptime, t)}</Field>
      <Field label={t('system_memory')}>
        {t('system_memory_used', { used: formatBytes(usedMemory), total: formatBytes(info.memory.total) })}
        <LinearProgress variant="determinate" value={memoryPercent} aria-label={t('system_memory')} sx={{ mt: 0.5, maxWidth: 320, borderRadius: 1 }} />
      </Field>
      <Field label={t('system_cpu_model')}>{info.cpu.model || '—'}</Field>
      <Field label={t('system_cpu_speed')}>{info.cpu.speed > 0 ? t('system_mhz', { n: info.cpu.speed }) : '—'}</Field>
      <Field label={t('system_cpu_cores')}>{info.cpu.cores}</Field>
      <Field label={t('system_load_average')}>{info.loadAverage.join(' / ')}</Field>
      <Field label={t('system_node_version')}>{info.nodeVersion}</Field>
    </Box>
  );
}

/** Settings → System → Information: the machine the server runs on. */
export function InformationSection() {
  const info = useSystemInfo();
  return <SectionState query={info}>{(data) => <InformationFields info={data} />}</SectionState>;
}

import type { TFunction } from 'i18next';

/** Seconds as days, hours and minutes ('3일 4시간 5분', '3 d 4 h 5 min'); under a minute as '0 min'. */
export function formatUptime(seconds: number, t: TFunction): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts: string[] = [];
  if (days > 0) parts.push(t('system_days', { n: days }));
  if (hours > 0) parts.push(t('system_hours', { n: hours }));
  if (minutes > 0 || parts.length === 0) parts.push(t('system_minutes', { n: minutes }));
  return parts.join(' ');
}

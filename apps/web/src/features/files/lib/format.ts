const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Bytes in base 1024 with up to one decimal: 1536 → '1.5 KB'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const exponent = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** exponent;
  const text = exponent === 0 ? String(Math.round(value)) : value.toFixed(value >= 100 ? 0 : 1).replace(/\.0$/, '');
  return `${text} ${UNITS[exponent]}`;
}

/** Share of `used` in `total` as a percentage with two decimals: '12.34'. */
export function usagePercent(used: number, total: number | null): string | null {
  if (!total || total <= 0) return null;
  return ((used / total) * 100).toFixed(2);
}

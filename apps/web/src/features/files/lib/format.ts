/** Share of `used` in `total` as a percentage with two decimals: '12.34'. */
export function usagePercent(used: number, total: number | null): string | null {
  if (!total || total <= 0) return null;
  return ((used / total) * 100).toFixed(2);
}

import type { UsageBreakdown } from '@bogwan/contracts';
import type { TFunction } from 'i18next';

/**
 * A root folder's usage split for people: "Files 1.2 GB · Versions 300 MB · Trash 20 MB".
 * The volume limit applies to the sum, so each part is shown where the usage is (usage bar
 * tooltip, volume table, dashboard).
 */
export function usageBreakdownText(t: TFunction, formatBytes: (bytes: number) => string, breakdown: UsageBreakdown): string {
  return t('usage_breakdown', { live: formatBytes(breakdown.live), versions: formatBytes(breakdown.versions), trash: formatBytes(breakdown.trash) });
}

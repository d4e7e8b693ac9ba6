import { BYTE_UNITS } from '@bogwan/contracts';

export type ByteUnit = keyof typeof BYTE_UNITS;
export const BYTE_UNIT_NAMES = Object.keys(BYTE_UNITS) as ByteUnit[];
export const DEFAULT_BYTE_UNIT: ByteUnit = 'GB';

/** Bytes of `amount` `unit`s (base 1024), or null when the amount is not a number ≥ 0. */
export function toBytes(amount: string, unit: ByteUnit): number | null {
  const text = amount.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const bytes = Math.round(Number(text) * BYTE_UNITS[unit]);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** A limit in bytes shown as an amount of the largest unit it fills at least once (GB by default). */
export function fromBytes(bytes: number | null): { amount: string; unit: ByteUnit } {
  if (bytes === null) return { amount: '', unit: DEFAULT_BYTE_UNIT };
  const unit = [...BYTE_UNIT_NAMES].reverse().find((name) => bytes >= BYTE_UNITS[name] && bytes % BYTE_UNITS[name] === 0) ?? 'Bytes';
  return { amount: String(bytes / BYTE_UNITS[unit]), unit };
}

/** A rate 0–1 (or more) as a percentage with two decimals. */
export function formatRate(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(2)}%`;
}

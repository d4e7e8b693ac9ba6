import { NOTICE_NEW_DAYS } from '@bogwan/contracts';

const DAY_MS = 86_400_000;

/** A notice younger than NOTICE_NEW_DAYS is marked New. */
export function isNewNotice(createdAt: string, now: number = Date.now()): boolean {
  const time = new Date(createdAt).getTime();
  return Number.isFinite(time) && now - time < NOTICE_NEW_DAYS * DAY_MS;
}

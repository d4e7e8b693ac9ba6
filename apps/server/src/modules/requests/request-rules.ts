import type { RequestAction, RequestStatus } from '@bogwan/contracts';

/** Who may take an action: a security manager of the request's folders, or its requester. */
export type RequestActor = 'manager' | 'requester';

export interface RequestTransition {
  from: readonly RequestStatus[];
  to: RequestStatus;
  actor: RequestActor;
}

/**
 * Every state change a person can make. A security manager decides a PENDING request
 * (approve or reject, one step); its requester may withdraw it while PENDING or APPROVED.
 * REJECTED, CANCELED and EXPIRED are final. EXPIRED is set by time alone: a PENDING
 * request nobody decided in time, or an APPROVED one past its validity.
 */
export const REQUEST_TRANSITIONS: Record<RequestAction, RequestTransition> = {
  approve: { from: ['PENDING'], to: 'APPROVED', actor: 'manager' },
  reject: { from: ['PENDING'], to: 'REJECTED', actor: 'manager' },
  cancel: { from: ['PENDING', 'APPROVED'], to: 'CANCELED', actor: 'requester' },
};

/** States that time can end (EXPIRED). */
export const EXPIRING_STATUSES: readonly RequestStatus[] = ['PENDING', 'APPROVED'];

/** True when `action` may be taken on a request in `status`. */
export function allows(action: RequestAction, status: RequestStatus): boolean {
  return REQUEST_TRANSITIONS[action].from.includes(status);
}

/** An ISO time `days` after `from`. */
export function daysAfter(from: Date, days: number): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString();
}

/** True while an approval still stands: APPROVED and not past its validity (expiry may not be written yet). */
export function approvalValid(request: { status: string; expires_at: string }, now: string): boolean {
  return request.status === 'APPROVED' && request.expires_at > now;
}

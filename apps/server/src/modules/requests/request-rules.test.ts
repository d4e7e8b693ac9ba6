import { REQUEST_STATUSES } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { allows, approvalValid, REQUEST_TRANSITIONS } from './request-rules.js';

describe('request transitions', () => {
  it('lets only a PENDING request be approved or rejected', () => {
    for (const status of REQUEST_STATUSES) {
      expect(allows('approve', status)).toBe(status === 'PENDING');
      expect(allows('reject', status)).toBe(status === 'PENDING');
    }
  });

  it('lets a requester withdraw a pending or approved request, never a final one', () => {
    expect(REQUEST_STATUSES.filter((status) => allows('cancel', status))).toEqual(['PENDING', 'APPROVED']);
  });

  it('gives deciding to managers and withdrawing to the requester', () => {
    expect(REQUEST_TRANSITIONS.approve.actor).toBe('manager');
    expect(REQUEST_TRANSITIONS.reject.actor).toBe('manager');
    expect(REQUEST_TRANSITIONS.cancel.actor).toBe('requester');
  });

  it('lets an approval stand only while APPROVED and before its expiry', () => {
    const now = '2026-03-01T00:00:00.000Z';
    const later = '2026-03-02T00:00:00.000Z';
    expect(REQUEST_STATUSES.filter((status) => approvalValid({ status, expires_at: later }, now))).toEqual(['APPROVED']);
    expect(approvalValid({ status: 'APPROVED', expires_at: now }, now)).toBe(false);
  });
});

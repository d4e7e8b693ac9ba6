import { LockLostError, UnreachableError } from '@bogwan/vault';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { errorKeyOf } from './context.js';

describe('errorKeyOf', () => {
  it('names what a failed background run or restore met, for the task panel', () => {
    expect(errorKeyOf(new UnreachableError('put data/ab', new Error('ECONNREFUSED')), 'request_error_message')).toBe('snapshot_location_unreachable');
    expect(errorKeyOf(new LockLostError('backup', new Date(0).toISOString()), 'request_error_message')).toBe('snapshot_lock_lost');
    expect(errorKeyOf(new AppError(409, 'snapshot_operation_in_progress'), 'request_error_message')).toBe('snapshot_operation_in_progress');
    expect(errorKeyOf(new Error('disk on fire'), 'request_error_message')).toBe('request_error_message');
  });
});

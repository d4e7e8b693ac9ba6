import { AVATAR_MAX_BYTES } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { avatarFileProblem } from './avatar-file';

describe('avatar file check', () => {
  it('accepts images only, up to the size limit', () => {
    expect(avatarFileProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(avatarFileProblem({ type: 'application/pdf', size: 1000 })).toBe('profile_image_only');
    expect(avatarFileProblem({ type: '', size: 10 })).toBe('profile_image_only');
    expect(avatarFileProblem({ type: 'image/jpeg', size: AVATAR_MAX_BYTES + 1 })).toBe('payload_too_large_message');
  });
});

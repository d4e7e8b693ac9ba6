import { AVATAR_MAX_BYTES } from '@bogwan/contracts';
import { k } from '../../../i18n/keys';

/** Why a chosen file cannot be an avatar (a message key), or null. Only images are accepted. */
export function avatarFileProblem(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return k('profile_image_only');
  if (file.size > AVATAR_MAX_BYTES) return k('payload_too_large_message');
  return null;
}

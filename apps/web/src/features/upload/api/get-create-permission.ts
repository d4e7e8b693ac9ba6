import { permissionListSchema } from '@bogwan/contracts';
import { apiFetch } from '../../../api/client';

/** GET /api/resource/permission?path=: whether the user may add files there. A failed lookup counts as no. */
export async function canCreateIn(path: string): Promise<boolean> {
  try {
    const permissions = await apiFetch('/resource/permission', { query: { path }, schema: permissionListSchema });
    return permissions.includes('CREATE');
  } catch {
    return false;
  }
}

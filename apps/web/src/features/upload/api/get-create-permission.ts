import { apiCalls } from '@bogwan/contracts';
import { callApi } from '../../../api/client';

/** GET /api/resource/permission?path=: whether the user may add files there. A failed lookup counts as no. */
export async function canCreateIn(path: string): Promise<boolean> {
  try {
    const permissions = await callApi(apiCalls.resource_permission, { query: { path } });
    return permissions.includes('CREATE');
  } catch {
    return false;
  }
}

import { type Profile, apiCalls } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/user/profile?email=: a user's public profile, or null when there is none. */
export async function getProfileByEmail(email: string, signal?: AbortSignal): Promise<Profile | null> {
  const list = await callApi(apiCalls.user_profile, { query: { email }, signal });
  return list.find((profile) => profile.email.toLowerCase() === email.toLowerCase()) ?? null;
}

export function useProfile(email: string) {
  return useQuery({
    queryKey: ['profiles', 'email', email.toLowerCase()],
    queryFn: ({ signal }) => getProfileByEmail(email, signal),
    enabled: email !== '',
  });
}

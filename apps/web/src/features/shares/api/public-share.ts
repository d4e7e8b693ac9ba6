import { SHARE_TOKEN_HEADER, type PublicShare, type PublicShareList, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { fetchWithSession } from '../../../api/fetch-with-session';
import { sharesKeys } from './keys';

const base = (key: string) => `/share/public/${encodeURIComponent(key)}`;
const tokenHeader = (shareToken: string | null): Record<string, string> => (shareToken ? { [SHARE_TOKEN_HEADER]: shareToken } : {});

/** GET /api/share/public/{key}: what the link shows (the session's token goes along when signed in). */
export async function getPublicShare(key: string, shareToken: string | null, signal?: AbortSignal): Promise<PublicShare> {
  return callApi(apiCalls.share_public, { params: { key }, headers: tokenHeader(shareToken), sessionOptional: true, signal });
}

export function usePublicShare(key: string, shareToken: string | null) {
  return useQuery({
    queryKey: sharesKeys.public(key, shareToken),
    queryFn: ({ signal }) => getPublicShare(key, shareToken, signal),
    retry: false,
    enabled: key !== '',
  });
}

/** GET /api/share/public/{key}/list?path=: a folder inside a shared folder. */
export async function getPublicShareList(key: string, shareToken: string | null, path: string, signal?: AbortSignal): Promise<PublicShareList> {
  return callApi(apiCalls.share_public_list, { params: { key }, query: { path }, headers: tokenHeader(shareToken), sessionOptional: true, signal });
}

export function usePublicShareList(key: string, shareToken: string | null, path: string, enabled: boolean) {
  return useQuery({
    queryKey: sharesKeys.publicList(key, shareToken, path),
    queryFn: ({ signal }) => getPublicShareList(key, shareToken, path, signal),
    retry: false,
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** POST /api/share/public/{key}/unlock: the share token for a password-protected link. */
export function unlockShare(key: string, password: string): Promise<{ shareToken: string }> {
  return callApi(apiCalls.share_public_unlock, { params: { key }, body: { password }, refresh: false });
}

export function useUnlockShare(key: string) {
  return useMutation({ mutationFn: (password: string) => unlockShare(key, password) });
}

/** The bytes of a file inside the link for a preview, fetched with the share token, never a token in the URL. */
export async function fetchSharePreview(key: string, shareToken: string | null, path: string, signal?: AbortSignal): Promise<Blob> {
  const response = await fetchWithSession(`${base(key)}/preview?${new URLSearchParams({ path })}`, { headers: tokenHeader(shareToken), signal });
  return response.blob();
}

/**
 * POST /api/share/public/{key}/ticket: a single-use, one-minute ticket for one download of
 * the item at `path` (the share token goes in the body, the session's token as usual). Every
 * check of the download runs here, so a refusal comes back as a message key.
 */
export async function shareDownloadTicket(key: string, shareToken: string | null, path: string): Promise<string> {
  const body = shareToken ? { path, shareToken } : { path };
  return (await callApi(apiCalls.share_public_download_ticket, { params: { key }, body })).ticket;
}

/** Where the browser fetches a ticket's download itself, streaming it to disk: the URL carries only the ticket. */
export const ticketDownloadUrl = (ticket: string) => `/api/share/public/download?${new URLSearchParams({ ticket })}`;

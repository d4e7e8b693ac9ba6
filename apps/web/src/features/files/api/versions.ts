import { type FileVersionList, type FileVersionRef, apiCalls } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { downloadByTicket } from './download-file';
import { filesKeys, refreshFiles } from './keys';

/** GET /api/file/versions?path=: the current content first, then the kept versions, newest first. */
export function getFileVersions(path: string, signal?: AbortSignal): Promise<FileVersionList> {
  return callApi(apiCalls.file_versions, { query: { path }, signal });
}

export const fileVersionsQueryOptions = (path: string) =>
  queryOptions({ queryKey: filesKeys.versions(path), queryFn: ({ signal }) => getFileVersions(path, signal) });

export function useFileVersions(path: string | null) {
  return useQuery({ ...fileVersionsQueryOptions(path ?? ''), enabled: path !== null });
}

/** A version to the browser's download manager (a download ticket; resumable, never held in the page). */
export function downloadVersion(ref: FileVersionRef): Promise<void> {
  return downloadByTicket({ path: ref.path, versionId: ref.id });
}

/** POST /api/file/version/restore: the version becomes the content; the current one becomes a version. */
export function useRestoreVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ref: FileVersionRef) => callApi(apiCalls.file_version_restore, { body: ref }),
    onSettled: () => refreshFiles(queryClient),
  });
}

/** DELETE /api/file/version `{path, id}`: deletes a kept version for good (never the current one). */
export function useDeleteVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ref: FileVersionRef) => callApi(apiCalls.file_version_delete, { body: ref }),
    onSettled: () => refreshFiles(queryClient),
  });
}

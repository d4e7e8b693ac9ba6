import { type FileEntry, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { parentOf } from '../lib/storage-path';
import { refreshFiles } from './keys';

export interface TransferInput {
  items: Pick<FileEntry, 'name' | 'path'>[];
  /** Folder the items go to. */
  newPath: string;
}

/** POST /api/file/move (or /copy) for each item: `{path: parent folder, name, newPath}`. */
export async function transferItems(kind: 'move' | 'copy', { items, newPath }: TransferInput): Promise<void> {
  for (const item of items) {
    await callApi(kind === 'move' ? apiCalls.file_move : apiCalls.file_copy, {
      body: { path: parentOf(item.path), name: item.name, newPath, onConflict: kind === 'copy' ? 'keep-both' : 'error' },
    });
  }
}

export function useMoveItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TransferInput) => transferItems('move', input),
    onSettled: () => refreshFiles(queryClient),
  });
}

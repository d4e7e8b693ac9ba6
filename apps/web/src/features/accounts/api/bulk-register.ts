import { bulkPreviewSchema, bulkRegisterResponseSchema, type BulkPreview, type BulkRow } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { accountsKeys } from './keys';

/** POST /api/user/excel: reads an .xls/.xlsx sheet into the three preview lists. */
export function readSheet(file: File): Promise<BulkPreview> {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiFetch('/user/excel', { method: 'POST', body: form, schema: bulkPreviewSchema });
}

/** POST /api/user/register/check: sorts edited rows again into the three lists. */
export function checkRows(list: BulkRow[]): Promise<BulkPreview> {
  return apiFetch('/user/register/check', { method: 'POST', body: { list }, schema: bulkPreviewSchema });
}

/** POST /api/user/register: creates an account per row. */
export function registerRows(list: BulkRow[]): Promise<{ created: number }> {
  return apiFetch('/user/register', { method: 'POST', body: { list }, schema: bulkRegisterResponseSchema });
}

export function useReadSheet() {
  return useMutation({ mutationFn: readSheet });
}

export function useCheckRows() {
  return useMutation({ mutationFn: checkRows });
}

export function useRegisterRows() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerRows,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountsKeys.all }),
  });
}

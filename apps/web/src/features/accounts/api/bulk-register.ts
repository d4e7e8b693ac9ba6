import { type BulkPreview, type BulkRow, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { accountsKeys } from './keys';

/** POST /api/user/excel: reads an .xls/.xlsx sheet into the three preview lists. */
export function readSheet(file: File): Promise<BulkPreview> {
  const form = new FormData();
  form.append('file', file, file.name);
  return callApi(apiCalls.user_excel, { body: form });
}

/** POST /api/user/register/check: sorts edited rows again into the three lists. */
export function checkRows(list: BulkRow[]): Promise<BulkPreview> {
  return callApi(apiCalls.user_register_check, { body: { list } });
}

/** POST /api/user/register: creates an account per row. */
export function registerRows(list: BulkRow[]): Promise<{ created: number }> {
  return callApi(apiCalls.user_register, { body: { list } });
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

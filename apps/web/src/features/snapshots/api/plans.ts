import {
  type SnapshotPlan,
  type SnapshotPlanCreate,
  type SnapshotPlanUpdate,
  type SnapshotRun,
  type SnapshotScheduleStatus,
  apiCalls,
} from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { RUNNING_REFRESH_MS, snapshotKeys } from './keys';

/** GET /api/snapshot/plan: every plan with its schedules and last run. */
export function getPlans(signal?: AbortSignal): Promise<SnapshotPlan[]> {
  return callApi(apiCalls.snapshot_plan_list, { signal }).then((r) => r.items);
}

export const plansQueryOptions = () =>
  queryOptions({
    queryKey: snapshotKeys.plans(),
    queryFn: ({ signal }) => getPlans(signal),
    refetchInterval: (query) => (query.state.data?.some((p) => p.lastRun?.status === 'running') ? RUNNING_REFRESH_MS : false),
  });

export function usePlans() {
  return useQuery(plansQueryOptions());
}

/** POST /api/snapshot/plan (creates the repository too) or PUT /api/snapshot/plan/{id}. */
export function savePlan(input: { id: string; body: SnapshotPlanUpdate } | { id: null; body: SnapshotPlanCreate }): Promise<SnapshotPlan> {
  return input.id !== null
    ? callApi(apiCalls.snapshot_plan_update, { params: { id: input.id }, body: input.body })
    : callApi(apiCalls.snapshot_plan_create, { body: input.body });
}

/** DELETE /api/snapshot/plan/{id}: the plan and its history; the repository stays. */
export function deletePlan(id: string): Promise<void> {
  return callApi(apiCalls.snapshot_plan_delete, { params: { id } });
}

/** PUT /api/snapshot/schedule/{id}: pause or resume one schedule. */
export function setScheduleStatus(input: { id: string; status: SnapshotScheduleStatus }): Promise<SnapshotPlan> {
  return callApi(apiCalls.snapshot_schedule_status, { params: { id: input.id }, body: { status: input.status } });
}

/** POST /api/snapshot/plan/{id}/run: take a snapshot now (409 while another operation runs). */
export function runPlan(id: string): Promise<SnapshotRun> {
  return callApi(apiCalls.snapshot_run, { params: { id } });
}

function useSnapshotMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: snapshotKeys.all }) });
}

export const useSavePlan = () => useSnapshotMutation(savePlan);
export const useDeletePlan = () => useSnapshotMutation(deletePlan);
export const useSetScheduleStatus = () => useSnapshotMutation(setScheduleStatus);
export const useRunPlan = () => useSnapshotMutation(runPlan);

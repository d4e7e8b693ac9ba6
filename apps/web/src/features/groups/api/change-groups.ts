import type { CreateGroupRequest, UpdateGroupRequest } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { groupsKeys } from './keys';

/** Every group change refreshes groups and accounts (accounts list their groups). */
function useGroupMutation<Input>(call: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['accounts'] }),
      ]),
  });
}

/** POST /api/group. */
export function useCreateGroup() {
  return useGroupMutation((body: CreateGroupRequest) => apiFetch('/group', { method: 'POST', body }));
}

/** PUT /api/group: name and description. */
export function useUpdateGroup() {
  return useGroupMutation((body: UpdateGroupRequest) => apiFetch('/group', { method: 'PUT', body }));
}

/** DELETE /api/group/:id: members lose the group first, then it goes. */
export function useDeleteGroup() {
  return useGroupMutation((id: string) => apiFetch(`/group/${encodeURIComponent(id)}`, { method: 'DELETE' }));
}

/** POST /api/group/:id/members: invited accounts join and are notified. */
export function useAddMembers() {
  return useGroupMutation(({ groupId, userIds }: { groupId: string; userIds: string[] }) =>
    apiFetch(`/group/${encodeURIComponent(groupId)}/members`, { method: 'POST', body: { userIds } }),
  );
}

/** DELETE /api/group/:id/members/:userId. */
export function useRemoveMember() {
  return useGroupMutation(({ groupId, userId }: { groupId: string; userId: string }) =>
    apiFetch(`/group/${encodeURIComponent(groupId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
  );
}

/** POST /api/notification/group: tells a member about the group again. */
export function useNotifyMember() {
  return useMutation({
    mutationFn: ({ groupId, userId }: { groupId: string; userId: string }) =>
      apiFetch('/notification/group', { method: 'POST', body: { userId, groupId } }),
  });
}

import { type CreateGroupRequest, type UpdateGroupRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { groupsKeys } from './keys';

/** Every group change refreshes groups and accounts (accounts list their groups). */
function useGroupMutation<Input>(call: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: groupsKeys.all }), queryClient.invalidateQueries({ queryKey: ['accounts'] })]),
  });
}

/** POST /api/group. */
export function useCreateGroup() {
  return useGroupMutation((body: CreateGroupRequest) => callApi(apiCalls.group_create, { body }));
}

/** PUT /api/group: name and description. */
export function useUpdateGroup() {
  return useGroupMutation((body: UpdateGroupRequest) => callApi(apiCalls.group_update, { body }));
}

/** DELETE /api/group/:id: members lose the group first, then it goes. */
export function useDeleteGroup() {
  return useGroupMutation((id: string) => callApi(apiCalls.group_delete, { params: { id } }));
}

/** POST /api/group/:id/members: invited accounts join and are notified. */
export function useAddMembers() {
  return useGroupMutation(({ groupId, userIds }: { groupId: string; userIds: string[] }) =>
    callApi(apiCalls.group_members_add, { params: { id: groupId }, body: { userIds } }),
  );
}

/** DELETE /api/group/:id/members/:userId. */
export function useRemoveMember() {
  return useGroupMutation(({ groupId, userId }: { groupId: string; userId: string }) =>
    callApi(apiCalls.group_member_remove, { params: { id: groupId, userId } }),
  );
}

/** POST /api/notification/group: tells a member about the group again. */
export function useNotifyMember() {
  return useMutation({
    mutationFn: ({ groupId, userId }: { groupId: string; userId: string }) => callApi(apiCalls.notification_group, { body: { userId, groupId } }),
  });
}

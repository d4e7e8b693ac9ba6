import { z } from 'zod';
import { ROLES } from '../enums.js';
import { folderAccessSchema } from './permissions.js';

export const groupMemberSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  profileImage: z.string().nullable(),
  createdAt: z.string(),
});

/** The spec's Group: members and its permissions per folder. */
export const groupSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  users: z.array(groupMemberSchema),
  createdAt: z.string(),
  permissions: z.array(folderAccessSchema),
});
export type Group = z.infer<typeof groupSchema>;
export const groupListSchema = z.array(groupSchema);

/** What any signed-in user may read of groups (pickers): no members. */
export const groupInfoSchema = z.object({ _id: z.string(), name: z.string(), description: z.string(), userCount: z.number().int() });
export type GroupInfo = z.infer<typeof groupInfoSchema>;
export const groupInfoListSchema = z.array(groupInfoSchema);
export const groupInfoQuerySchema = z.object({ _id: z.string().max(64).optional() });

const groupNameField = z
  .string({ error: 'rules_group_name_required' })
  .transform((v) => v.trim())
  .pipe(z.string().min(1, { error: 'rules_group_name_required' }).max(60, { error: 'rules_group_name_required' }));

export const createGroupRequestSchema = z.object({ name: groupNameField, description: z.string().trim().max(500).default('') });
export type CreateGroupRequest = z.input<typeof createGroupRequestSchema>;

export const updateGroupRequestSchema = z.object({
  _id: z.string().min(1).max(64),
  name: groupNameField.optional(),
  description: z.string().trim().max(500).optional(),
});
export type UpdateGroupRequest = z.input<typeof updateGroupRequestSchema>;

export const groupIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const groupMemberParamsSchema = z.object({ id: z.string().min(1).max(64), userId: z.string().min(1).max(64) });

/** Invite accounts to a group (each is notified). */
export const addGroupMembersRequestSchema = z.object({ userIds: z.array(z.string().min(1).max(64)).min(1).max(500) });

/** POST /api/notification/group: tell a member about the group. */
export const groupNotificationRequestSchema = z.object({ userId: z.string().min(1).max(64), groupId: z.string().min(1).max(64) });

import { buffer } from 'node:stream/consumers';
import fastifyMultipart from '@fastify/multipart';
import {
  AVATAR_MAX_BYTES,
  BULK_REGISTER_MAX_BYTES,
  accountIdParamsSchema,
  accountListSchema,
  accountPermissionsSchema,
  accountQuerySchema,
  accountSchema,
  bulkListRequestSchema,
  bulkPreviewSchema,
  bulkRegisterResponseSchema,
  createAccountRequestSchema,
  deleteAccountByAdminRequestSchema,
  deleteOwnAccountRequestSchema,
  initialPasswordSchema,
  okResponseSchema,
  profileListSchema,
  profileQuerySchema,
  updateAccountRequestSchema,
  userSchema,
} from '@bogwan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest, notFound } from '../../errors.js';
import { guardFileStream } from '../../http/multipart.js';
import type { RoutePolicy } from '../../http/policy.js';
import { callerOf } from '../files/files.routes.js';
import type { ResourcesService } from '../permissions/resources.service.js';
import type { AccountsService } from './accounts.service.js';
import type { Avatars } from './avatars.js';

const category = 'user';
const policies = {
  list: { category, name: 'user_list', description: 'Accounts with their groups (account list)', level: 2 },
  profiles: { category, name: 'user_profile', description: "Accounts' public profiles (profile page, pickers)", level: 1 },
  update: { category, name: 'user_update', description: 'Change an account: own name and avatar, or status, role and groups within the role rules', level: 1 },
  create: { category, name: 'user_create', description: 'Create an account (ACTIVE, approved; the initial password when none is given)', level: 2 },
  initialPassword: { category, name: 'user_initial_password', description: 'The password accounts created without one receive', level: 2 },
  deleteByAdmin: { category, name: 'user_delete', description: "Delete someone's account (level 2: USERs only); their sessions end", level: 2 },
  deleteOwn: { category, name: 'user_delete_own', description: "Delete one's own account with the password", level: 1 },
  avatar: { category, name: 'user_avatar', description: "Set one's own avatar (images only, re-encoded without metadata)", level: 1 },
  avatarDelete: { category, name: 'user_avatar_delete', description: "Remove one's own avatar", level: 1 },
  avatarImage: { category, name: 'avatar_image', description: 'An avatar image by its random key', level: 0 },
  excel: { category, name: 'user_excel', description: 'Read an .xls/.xlsx sheet into the bulk registration lists', level: 2 },
  check: { category, name: 'user_register_check', description: 'Sort edited bulk rows into invalid, duplicate and available', level: 2 },
  register: { category, name: 'user_register', description: 'Register every bulk row, or none', level: 2 },
  permissions: { category, name: 'user_permissions', description: "An account's access per root folder", level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface AccountRoutesDeps {
  accounts: AccountsService;
  resources: ResourcesService;
  avatars: Avatars;
}

/** The one file of a multipart body, whole (small files only: avatars and sheets). */
async function uploadedFile(request: FastifyRequest, maxBytes: number): Promise<{ bytes: Buffer; fileName: string }> {
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 }, throwFileSizeLimit: false });
  if (!part) throw badRequest('multipart_body_invalid');
  const bytes = await buffer(guardFileStream(part.file));
  if (part.file.truncated) throw new AppError(413, 'payload_too_large_message');
  if (bytes.length === 0) throw badRequest('multipart_file_empty');
  return { bytes, fileName: part.filename };
}

export async function accountRoutes(app: FastifyInstance, { accounts, resources, avatars }: AccountRoutesDeps): Promise<void> {
  await app.register(fastifyMultipart, { limits: { files: 1, fields: 4, fieldSize: 1024, parts: 5 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get(
    '/api/user',
    { config: { policy: policies.list }, schema: { tags, querystring: accountQuerySchema, response: { 200: accountListSchema } } },
    (request) => accounts.list(request.query._id),
  );
  r.get(
    '/api/user/profile',
    { config: { policy: policies.profiles }, schema: { tags, querystring: profileQuerySchema, response: { 200: profileListSchema } } },
    (request) => accounts.profiles(request.query),
  );
  r.put('/api/user', { config: { policy: policies.update }, schema: { tags, body: updateAccountRequestSchema, response: { 200: accountSchema } } }, (request) =>
    accounts.update(callerOf(request), request.body),
  );
  r.post(
    '/api/user',
    { config: { policy: policies.create }, schema: { tags, body: createAccountRequestSchema, response: { 200: accountSchema } } },
    (request) => accounts.create(callerOf(request), request.body),
  );
  r.get('/api/user/initial-password', { config: { policy: policies.initialPassword }, schema: { tags, response: { 200: initialPasswordSchema } } }, () => ({
    password: accounts.initialPassword,
  }));
  r.post(
    '/api/user/admin',
    { config: { policy: policies.deleteByAdmin }, schema: { tags, body: deleteAccountByAdminRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await accounts.deleteByAdmin(callerOf(request), request.body.accountId);
      return { success: true };
    },
  );
  r.post(
    '/api/user/account',
    { config: { policy: policies.deleteOwn }, schema: { tags, body: deleteOwnAccountRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await accounts.deleteOwn(callerOf(request), request.body._id, request.body.password, request.body.reason);
      return { success: true };
    },
  );
  r.post(
    '/api/user/profile/:id',
    { config: { policy: policies.avatar }, schema: { tags, consumes: ['multipart/form-data'], params: accountIdParamsSchema, response: { 200: userSchema } } },
    async (request) => {
      const { bytes } = await uploadedFile(request, AVATAR_MAX_BYTES);
      return accounts.setAvatar(callerOf(request), request.params.id, bytes);
    },
  );
  r.delete(
    '/api/user/profile/:id',
    { config: { policy: policies.avatarDelete }, schema: { tags, params: accountIdParamsSchema, response: { 200: userSchema } } },
    (request) => accounts.removeAvatar(callerOf(request), request.params.id),
  );
  r.get(
    '/api/avatar/:key',
    { config: { policy: policies.avatarImage }, schema: { tags, params: z.object({ key: z.string().max(64) }) } },
    async (request, reply) => {
      const bytes = await avatars.read(request.params.key);
      if (!bytes) throw notFound();
      return reply
        .header('content-type', 'image/webp')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(bytes);
    },
  );
  r.post(
    '/api/user/excel',
    { config: { policy: policies.excel }, schema: { tags, consumes: ['multipart/form-data'], response: { 200: bulkPreviewSchema } } },
    async (request) => {
      const { bytes, fileName } = await uploadedFile(request, BULK_REGISTER_MAX_BYTES);
      return accounts.previewSheet(bytes, fileName);
    },
  );
  r.post(
    '/api/user/register/check',
    { config: { policy: policies.check }, schema: { tags, body: bulkListRequestSchema, response: { 200: bulkPreviewSchema } } },
    (request) => accounts.classify(request.body.list),
  );
  r.post(
    '/api/user/register',
    { config: { policy: policies.register }, schema: { tags, body: bulkListRequestSchema, response: { 200: bulkRegisterResponseSchema } } },
    async (request) => ({ created: await accounts.register(callerOf(request), request.body.list) }),
  );
  r.get(
    '/api/user/:id/permissions',
    { config: { policy: policies.permissions }, schema: { tags, params: accountIdParamsSchema, response: { 200: accountPermissionsSchema } } },
    async (request) => {
      const user = await accounts.find(request.params.id);
      return resources.folderAccess('user', user.id, user);
    },
  );
}

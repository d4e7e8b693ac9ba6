import { type Notice, noticeCreateSchema, noticeSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import { newId } from '../../ids.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { NoticeRow, NoticesRepo } from './notices.repo.js';

const category = 'notice';
const policies = {
  list: { category, name: 'notice_list', description: 'Notices for everyone', level: 1 },
  create: { category, name: 'notice_create', description: 'Write a notice', level: 2 },
  remove: { category, name: 'notice_delete', description: 'Delete a notice', level: 2 },
} satisfies Record<string, RoutePolicy>;

const toNotice = (row: NoticeRow): Notice => ({
  _id: row.id,
  title: row.title,
  content: row.content,
  creator: row.creator_name,
  createdAt: row.created_at,
});

export async function noticeRoutes(app: FastifyInstance, deps: { notices: NoticesRepo; audit: AuditRecorder }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get('/api/notice', { config: { policy: policies.list }, schema: { tags, response: { 200: z.array(noticeSchema) } } }, async () =>
    (await deps.notices.list()).map(toNotice),
  );

  r.post(
    '/api/notice',
    { config: { policy: policies.create }, schema: { tags, body: noticeCreateSchema, response: { 200: noticeSchema } } },
    async (request) => {
      const user = request.user!;
      // Notices are shown as plain text by the web; stored as written.
      const row: NoticeRow = {
        id: newId(),
        title: request.body.title,
        content: request.body.content,
        creator_id: user.id,
        creator_name: user.name,
        created_at: new Date().toISOString(),
      };
      await deps.notices.insert(row);
      await deps.audit.record({ action: 'notice.create', target: { kind: 'notice', id: row.id, label: row.title } });
      return toNotice(row);
    },
  );

  r.delete(
    '/api/notice/:id',
    { config: { policy: policies.remove }, schema: { tags, params: z.object({ id: z.string().max(64) }) } },
    async (request, reply) => {
      if (!(await deps.notices.delete(request.params.id))) throw notFound();
      await deps.audit.record({ action: 'notice.delete', target: { kind: 'notice', id: request.params.id } });
      return reply.code(204).send();
    },
  );
}

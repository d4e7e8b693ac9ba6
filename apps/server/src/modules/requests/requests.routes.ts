import {
  approvalRequestListSchema,
  approvalRequestSchema,
  createRequestSchema,
  requestActionSchema,
  requestIdParamsSchema,
  requestListQuerySchema,
  secureStatusQuerySchema,
  secureStatusSchema,
} from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { callerOf } from '../files/files.routes.js';
import type { RequestsService } from './requests.service.js';

const category = 'request';
const policies = {
  create: { category, name: 'request_create', description: 'Ask a security manager to approve a download or share link in a secure folder', level: 1 },
  list: { category, name: 'request_list', description: 'Own requests, or those the caller may decide', level: 1 },
  act: { category, name: 'request_update', description: 'Approve or reject (security manager), or cancel (requester) a request', level: 1 },
  secure: { category, name: 'request_secure_status', description: 'Whether a path lies in a secure folder and an approval covers it', level: 1 },
} satisfies Record<string, RoutePolicy>;

export async function requestRoutes(app: FastifyInstance, { requests }: { requests: RequestsService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.post(
    '/api/request',
    { config: { policy: policies.create }, schema: { tags, body: createRequestSchema, response: { 200: approvalRequestSchema } } },
    (request) => requests.create(callerOf(request), request.body),
  );

  r.get(
    '/api/request',
    { config: { policy: policies.list }, schema: { tags, querystring: requestListQuerySchema, response: { 200: approvalRequestListSchema } } },
    (request) => requests.list(request.user!, request.query.box),
  );

  r.put(
    '/api/request/:id',
    { config: { policy: policies.act }, schema: { tags, params: requestIdParamsSchema, body: requestActionSchema, response: { 200: approvalRequestSchema } } },
    (request) => requests.act(callerOf(request), request.params.id, request.body.action, request.body.reason),
  );

  r.get(
    '/api/request/secure',
    { config: { policy: policies.secure }, schema: { tags, querystring: secureStatusQuerySchema, response: { 200: secureStatusSchema } } },
    (request) => requests.secureStatus(request.user!, request.query.path),
  );
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type Db, poolOf } from '../db/index.js';
import { MetricsRepo } from './metrics.repo.js';

/** Requests whose policy carries file bytes in (uploads) or out (downloads and previews). */
const UPLOAD_POLICY = /upload|_put$/;
const DOWNLOAD_POLICY = /download|preview|_get$/;

/** The label of a request: its route's policy name, never the raw URL (bounded label values). */
export function policyLabel(request: FastifyRequest): string {
  if (request.is404) return 'not_found';
  return request.routeOptions.config.policy?.name ?? 'no_policy';
}

/**
 * One registry per server instance (tests build several in one process), with the
 * process's default metrics (event-loop lag, heap, CPU, handles) under `bogwan_`.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'policy' | 'method' | 'status'>;
  private readonly duration: Histogram<'policy'>;
  private readonly uploadBytes: Counter<'policy'>;
  private readonly downloadBytes: Counter<'policy'>;

  constructor(db: Db) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'bogwan_' });
    this.requests = new Counter({
      name: 'bogwan_http_requests_total',
      help: 'Answered requests by route policy, method and status code',
      labelNames: ['policy', 'method', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'bogwan_http_request_duration_seconds',
      help: 'Time from request to the end of the answer, by route policy',
      labelNames: ['policy'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.uploadBytes = new Counter({
      name: 'bogwan_upload_bytes_total',
      help: 'Bytes received by upload routes (web chunks, WebDAV PUT, file requests)',
      labelNames: ['policy'],
      registers,
    });
    this.downloadBytes = new Counter({
      name: 'bogwan_download_bytes_total',
      help: 'Bytes sent by download and preview routes (web, shares, WebDAV GET)',
      labelNames: ['policy'],
      registers,
    });

    const repo = new MetricsRepo(db);
    new Gauge({
      name: 'bogwan_uploads_active',
      help: 'Chunked uploads begun and not yet completed or abandoned (all processes)',
      registers,
      async collect() {
        this.set(await repo.openUploads());
      },
    });
    new Gauge({
      name: 'bogwan_tasks',
      help: 'Background tasks by status (all processes)',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        for (const { status, count } of await repo.tasksByStatus()) this.set({ status }, count);
      },
    });
    const pool = poolOf(db);
    new Gauge({
      name: 'bogwan_db_pool_connections',
      help: 'Database connections of this process by state (PostgreSQL pool; SQLite holds one, always idle here)',
      labelNames: ['state'],
      registers,
      collect() {
        if (!pool) {
          this.set({ state: 'total' }, 1);
          this.set({ state: 'idle' }, 1);
          this.set({ state: 'waiting' }, 0);
          return;
        }
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  /** Records one answered request; `bytesIn`/`bytesOut` are what crossed the socket for it. */
  observe(request: FastifyRequest, reply: FastifyReply, bytesIn: number, bytesOut: number): void {
    const policy = policyLabel(request);
    this.requests.inc({ policy, method: request.method, status: String(reply.statusCode) });
    this.duration.observe({ policy }, reply.elapsedTime / 1000);
    if (UPLOAD_POLICY.test(policy) && bytesIn > 0) this.uploadBytes.inc({ policy }, bytesIn);
    if (DOWNLOAD_POLICY.test(policy) && bytesOut > 0) this.downloadBytes.inc({ policy }, bytesOut);
  }
}

import { apiCalls, CHUNK_SIZE } from '@bogwan/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, sendChunk, upload } from './transfer-helpers.js';

const TOKEN = 'metrics-token-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text exposition format (0.0.4): TYPE lines and samples; fails on any other line. */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line);
    if (!sample) throw new Error(`not the Prometheus text format: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

async function scrape(url: string, token?: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describeEachDialect('metrics behind a token on the main port, on $dialect', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect, { BOGWAN_METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a scrape without the token or with another one', async () => {
    expect((await scrape(`${server.url}/metrics`)).status).toBe(401);
    expect((await scrape(`${server.url}/metrics`, `${TOKEN}x`)).status).toBe(401);
    const refused = await server.request('GET', '/metrics', { headers: { authorization: 'Bearer nope' } });
    expect(refused.body).toEqual({ statusCode: 401, message: 'unauthorized_message' });
  });

  it('counts requests and their latency per route policy, never per raw URL', async () => {
    // Raw: URLs that differ in a query no contract has, and a route that does not exist; neither shows in a label.
    for (let i = 0; i < 3; i++) await server.request('GET', `/api/health?probe=${i}`);
    await server.request('GET', '/api/no-such-route');
    const { status, type, text } = await scrape(`${server.url}/metrics`, TOKEN);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    const { types, samples } = parseExposition(text);
    expect(types.get('bogwan_http_requests_total')).toBe('counter');
    expect(types.get('bogwan_http_request_duration_seconds')).toBe('histogram');
    expect(valueOf(samples, 'bogwan_http_requests_total', { policy: 'health', method: 'GET', status: '200' })).toBe(3);
    expect(valueOf(samples, 'bogwan_http_requests_total', { policy: 'not_found', status: '404' })).toBe(1);
    expect(valueOf(samples, 'bogwan_http_request_duration_seconds_count', { policy: 'health' })).toBe(3);
    expect(valueOf(samples, 'bogwan_http_request_duration_seconds_bucket', { policy: 'health', le: '+Inf' })).toBe(3);
    const labelValues = samples.flatMap((s) => Object.values(s.labels));
    expect(labelValues.filter((v) => v.includes('/'))).toEqual([]);
  });

  it('reports upload and download bytes, open uploads, tasks by status, the database pool, event-loop lag and heap', async () => {
    const master = await setupMaster(server);
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } });
    const data = bytesOf(50_000, 'metrics');
    expect((await upload(server, master.token, '/Team', 'a.bin', data)).status).toBe(200);
    expect((await fetchBytes(server, master.token, '/api/file/download?path=/Team/a.bin')).bytes.length).toBe(data.length);
    // One chunk of two: an upload left open.
    const big = bytesOf(CHUNK_SIZE + 100, 'open');
    const first = await sendChunk(server, master.token, {
      path: '/Team',
      fileName: 'open.bin',
      fileSize: big.length,
      chunkIndex: 0,
      totalChunks: 2,
      bytes: big.subarray(0, CHUNK_SIZE),
    });
    expect(first.status).toBe(200);

    const { samples } = parseExposition((await scrape(`${server.url}/metrics`, TOKEN)).text);
    expect(valueOf(samples, 'bogwan_upload_bytes_total', { policy: 'file_upload' })).toBeGreaterThanOrEqual(data.length + CHUNK_SIZE);
    expect(valueOf(samples, 'bogwan_download_bytes_total', { policy: 'file_download' })).toBeGreaterThanOrEqual(data.length);
    expect(valueOf(samples, 'bogwan_uploads_active')).toBe(1);

    const tasks = await server.app.db
      .selectFrom('tasks')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
    for (const row of tasks) expect(valueOf(samples, 'bogwan_tasks', { status: row.status })).toBe(Number(row.count));
    expect(samples.filter((s) => s.name === 'bogwan_tasks').length).toBe(tasks.length);

    expect(valueOf(samples, 'bogwan_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'bogwan_db_pool_connections', { state: 'idle' })).toBeLessThanOrEqual(
      valueOf(samples, 'bogwan_db_pool_connections', { state: 'total' })!,
    );
    expect(valueOf(samples, 'bogwan_db_pool_connections', { state: 'waiting' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'bogwan_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'bogwan_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

describe('metrics on a listener of their own', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { BOGWAN_METRICS_PORT: '0' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves /metrics on the metrics port (loopback) without a token, and not on the main port', async () => {
    const address = await server.app.metricsAddress();
    expect(address?.address).toBe('127.0.0.1');
    const metricsUrl = `http://127.0.0.1:${address!.port}`;
    await call(server, apiCalls.health);
    const { status, text } = await scrape(`${metricsUrl}/metrics`);
    expect(status).toBe(200);
    expect(valueOf(parseExposition(text).samples, 'bogwan_http_requests_total', { policy: 'health' })).toBe(1);
    expect((await scrape(`${metricsUrl}/other`)).status).toBe(404);
    expect((await scrape(`${server.url}/metrics`)).text).not.toContain('bogwan_http_requests_total');
  });
});

describe('metrics off by default', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has no metrics route and no metrics listener', async () => {
    expect(await server.app.metricsAddress()).toBeNull();
    const res = await scrape(`${server.url}/metrics`, TOKEN);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('bogwan_');
  });
});

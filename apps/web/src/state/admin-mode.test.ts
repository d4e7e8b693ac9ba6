import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminModeStore, leaveAdminMode } from './admin-mode';

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  adminModeStore.set(false);
});

describe('leaving admin mode', () => {
  it('locks the session on the server, then turns the switch off', async () => {
    adminModeStore.set(true);
    const fetchMock = vi.fn(async () => answer(200, { success: true }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await leaveAdminMode()).toBe('off');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect([url, init.method]).toEqual(['/api/setting/admin', 'DELETE']);
    expect(adminModeStore.get()).toBe(false);
  });

  it('stays on when the server could not lock the session (it can be tried again)', async () => {
    adminModeStore.set(true);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(500, { statusCode: 500, message: 'request_error_message' })),
    );
    expect(await leaveAdminMode()).toBe('failed');
    expect(adminModeStore.get()).toBe(true);
  });
});

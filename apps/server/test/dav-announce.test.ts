import type { Socket } from 'socket.io-client';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';
import { connect, next } from './sockets.js';
import { type DavAccount, dav, davMaster, davPath } from './dav-helpers.js';

// What follows a WebDAV upload as it follows a web upload: the search index reads its text,
// and sockets open in the web app hear of it (the usage event naming its root folder).

interface Hit {
  name: string;
  path: string;
  match: 'name' | 'content';
}

describeEachDialect('WebDAV uploads seen by search and realtime on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;
  let rootId = '';
  const root = '/웹다브 알림';

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    const made = await call(server, apiCalls.folder_create, { token: master.token, body: { name: root.slice(1), path: '/' } });
    expect(made.status, made.text).toBe(200);
    rootId = (await call(server, apiCalls.root_list, { token: master.token })).body.find((r) => r.name === root.slice(1))!._id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const search = async (keyword: string): Promise<Hit[]> => {
    const res = await call(server, apiCalls.search_keyword, { token: master.token, query: { keyword } });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('a PUT text file is found by a word inside it; a PUT over it replaces what is found', async () => {
    const path = `${root}/회의록 메모.txt`;
    expect((await dav(server, 'PUT', davPath(path), { auth: master.auth, body: 'agenda: the quixotrondel budget, 예산안 검토' })).status).toBe(201);
    await server.app.searchIndex.idle();
    expect((await search('quixotrondel')).map((h) => `${h.match}:${h.path}`)).toEqual([`content:${path}`]);

    expect((await dav(server, 'PUT', davPath(path), { auth: master.auth, body: 'minutes: the zymbalquert plan' })).status).toBe(204);
    await server.app.searchIndex.idle();
    expect((await search('zymbalquert')).map((h) => `${h.match}:${h.path}`)).toEqual([`content:${path}`]);
    expect(await search('quixotrondel')).toEqual([]);
  });

  it('a PUT reaches a socket open in the web app as the usage event naming its root folder', async () => {
    const connected = await connect(server.url, { token: master.token });
    expect(connected.error).toBeUndefined();
    const socket: Socket = connected.socket;
    try {
      // The baseline taken by hand, then the timer: the PUT is the next change it sees.
      server.app.usageWatch.stop();
      await server.app.usageWatch.check();
      server.app.usageWatch.start(100);
      const arrived = next<{ roots: string[] }>(socket, 'usage', 10_000);
      expect((await dav(server, 'PUT', davPath(`${root}/live.txt`), { auth: master.auth, body: 'live from WebDAV' })).status).toBe(201);
      expect((await arrived).roots).toContain(rootId);
    } finally {
      socket.disconnect();
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { NodesRepo } from '../files/nodes.repo.js';
import type { DeadPropertiesRepo } from './dead-properties.repo.js';
import type { DavLocks } from './ports.js';
import { ALLPROP_LIVE, DavProperties, type DavEntry, type DavNode } from './properties.js';

// allprop's live properties are written in one piece (`allpropLive`); a `prop` request naming
// the same properties goes through the general path, property by property. Both must write
// the same XML for every kind of resource.

const AT = '2026-11-28T03:47:00.000Z';
const file = (name: string, hash: string | null): DavNode => ({
  id: name,
  root_id: 'root',
  name,
  folder: 0,
  size: 1234,
  mtime: AT,
  content_hash: hash,
  created_at: '2025-02-03T04:05:06.789Z',
});
const ENTRIES: DavEntry[] = [
  { path: '/', node: null },
  { path: '/팀', node: { ...file('팀', null), folder: 1, size: 0 } },
  { path: '/팀/보고서.hwp', node: file('보고서.hwp', 'ab'.repeat(32)) },
  { path: '/팀/a&b<"\'>.txt', node: file('a&b<"\'>.txt', 'cd'.repeat(32)) },
  { path: '/팀/no-hash.bin', node: file('no-hash.bin', null) },
];
const LOCKED = '/팀/보고서.hwp';
const DISCOVERY = '<D:lockdiscovery><D:activelock><D:locktoken><D:href>urn:uuid:1</D:href></D:locktoken></D:activelock></D:lockdiscovery>';

function properties(): DavProperties {
  const nodes = { findByIds: async () => [] } as unknown as NodesRepo;
  const dead = { ofNodes: async () => new Map(), ofListing: async () => new Map() } as unknown as DeadPropertiesRepo;
  const locks = {
    supportedLock: () => '<D:supportedlock><D:lockentry/></D:supportedlock>',
    lockDiscoveryAll: async (paths: string[]) => new Map(paths.filter((p) => p === LOCKED).map((p) => [p, DISCOVERY])),
  } as unknown as DavLocks;
  return new DavProperties(nodes, dead, locks);
}

/** The content of the 200 propstat of the only response of a multistatus. */
function found(xml: string): string {
  return /<D:propstat><D:prop>(.*?)<\/D:prop><D:status>HTTP\/1\.1 200 OK<\/D:status>/s.exec(xml)![1]!;
}

describe('allprop', () => {
  it.each(ENTRIES.map((entry) => [entry.path, entry] as const))('writes what a prop request of the same live properties writes: %s', async (_path, entry) => {
    const dav = properties();
    const all = (await dav.multistatus([entry], { kind: 'allprop' })) as string;
    const named = (await dav.multistatus([entry], { kind: 'prop', props: ALLPROP_LIVE })) as string;
    expect(found(all)).toBe(found(named));
    // allprop leaves out what the resource lacks; the prop request answers it 404.
    expect(all).not.toContain('404 Not Found');
  });

  it('escapes names and answers the lock discovery of a locked path', async () => {
    const dav = properties();
    const [, , locked, special] = ENTRIES;
    const xml = (await dav.multistatus([locked!, special!], { kind: 'allprop' })) as string;
    expect(xml).toContain('<D:displayname>a&amp;b&lt;&quot;&apos;&gt;.txt</D:displayname>');
    expect(xml).toContain(`<D:getetag>&quot;${'ab'.repeat(32)}&quot;</D:getetag>`);
    expect(xml.split(DISCOVERY)).toHaveLength(2);
  });
});

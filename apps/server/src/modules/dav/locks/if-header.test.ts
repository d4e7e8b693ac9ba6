import { describe, expect, it } from 'vitest';
import { MAX_IF_HEADER_LENGTH, MalformedIfHeader, evaluateIf, parseIfHeader } from './if-header.js';

const T1 = 'urn:uuid:181d4fae-7d8c-11d0-a765-00a0c91e6bf2';
const T2 = 'opaquelocktoken:e71d4fae-5dec-22d6-fea5-00a0c91e6be4';

describe('If header parser', () => {
  it('reads untagged lists with state tokens, entity tags and Not', () => {
    expect(parseIfHeader(`(<${T1}> ["I am an ETag"]) (Not <DAV:no-lock> [W/"weak"])`)).toEqual([
      {
        resource: null,
        conditions: [
          { not: false, token: T1 },
          { not: false, etag: '"I am an ETag"' },
        ],
      },
      {
        resource: null,
        conditions: [
          { not: true, token: 'DAV:no-lock' },
          { not: false, etag: 'W/"weak"' },
        ],
      },
    ]);
  });

  it('reads the RFC 4918 examples', () => {
    expect(parseIfHeader(`(<${T1}> ["I am an ETag"]) (["I am another ETag"])`)).toEqual([
      {
        resource: null,
        conditions: [
          { not: false, token: T1 },
          { not: false, etag: '"I am an ETag"' },
        ],
      },
      { resource: null, conditions: [{ not: false, etag: '"I am another ETag"' }] },
    ]);
    expect(parseIfHeader(`(Not <${T1}> <${T2}>)`)).toEqual([
      {
        resource: null,
        conditions: [
          { not: true, token: T1 },
          { not: false, token: T2 },
        ],
      },
    ]);
    expect(parseIfHeader(`<http://www.example.com/specs/> (<${T1}>) </dav/b%20c> (["e"]) (Not ["f"])`)).toEqual([
      { resource: 'http://www.example.com/specs/', conditions: [{ not: false, token: T1 }] },
      { resource: '/dav/b%20c', conditions: [{ not: false, etag: '"e"' }] },
      { resource: '/dav/b%20c', conditions: [{ not: true, etag: '"f"' }] },
    ]);
    // Several lists may follow one tag.
    expect(parseIfHeader(`</a> (<${T1}>) (<${T2}>)`).map((list) => list.resource)).toEqual(['/a', '/a']);
    expect(parseIfHeader('([W/"weak"])')).toEqual([{ resource: null, conditions: [{ not: false, etag: 'W/"weak"' }] }]);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['no list', `<${T1}>`],
    ['unterminated list', `(<${T1}>`],
    ['unterminated token', `(<${T1})`],
    ['empty list', '()'],
    ['bare word', '(foo)'],
    ['Not alone', '(Not)'],
    ['token that is no URI', '(<not a uri>)'],
    ['entity tag without quotes', '([abc])'],
    ['tagged after untagged', `(<${T1}>) </a> (<${T2}>)`],
    ['tag without a list', `</a> (<${T1}>) </b>`],
    ['text after lists', `(<${T1}>) junk`],
    ['too long', `(<${T1}>)${' '.repeat(MAX_IF_HEADER_LENGTH)}`],
    ['too many conditions', `(${'["x"] '.repeat(200)})`],
  ])('refuses %s', (_why, header) => {
    expect(() => parseIfHeader(header)).toThrow(MalformedIfHeader);
  });
});

describe('If header evaluation', () => {
  const state = {
    etags: new Map<string, string>([
      ['/r/a.txt', '"etag-a"'],
      ['/r/b.txt', '"etag-b"'],
    ]),
    tokens: new Map<string, Set<string>>([['/r/a.txt', new Set([T1])]]),
  };
  const reader = {
    etagOf: async (path: string) => state.etags.get(path) ?? null,
    tokensFor: async (path: string) => state.tokens.get(path) ?? new Set<string>(),
  };
  const pathOfHref = (href: string) => (href.startsWith('/dav/') ? decodeURIComponent(href.slice(4)) : null);
  const evaluate = (header: string, path = '/r/a.txt') => evaluateIf(parseIfHeader(header), path, pathOfHref, reader);

  it('holds for the lock token of the resource and submits it', async () => {
    expect(await evaluate(`(<${T1}>)`)).toEqual({ holds: true, submitted: new Set([T1]) });
  });

  it('fails for an unknown token or a wrong ETag, and submits nothing', async () => {
    expect(await evaluate(`(<${T2}>)`)).toEqual({ holds: false, submitted: new Set() });
    expect(await evaluate(`(<${T1}> ["wrong"])`)).toEqual({ holds: false, submitted: new Set() });
  });

  it('holds when any list holds; Not inverts a condition', async () => {
    expect((await evaluate('(["wrong"]) (["etag-a"])')).holds).toBe(true);
    expect((await evaluate('(["wrong"]) (["etag-b"])')).holds).toBe(false);
    expect((await evaluate('(["x"]) (Not ["x"])')).holds).toBe(true);
    expect((await evaluate('(Not <DAV:no-lock>)')).holds).toBe(true);
    expect((await evaluate('(<DAV:no-lock>)')).holds).toBe(false);
  });

  it('submits only tokens of lists that hold, never negated ones', async () => {
    // A corrupt token in a list that fails is not submitted even though the header holds.
    const outcome = await evaluate(`(<${T2}>) (Not <DAV:no-lock>)`);
    expect(outcome).toEqual({ holds: true, submitted: new Set() });
    expect((await evaluate(`(Not <${T2}>)`)).submitted).toEqual(new Set());
  });

  it('applies tagged lists to their own resource; a tag outside /dav/ never holds', async () => {
    expect((await evaluate(`</dav/r/b.txt> (["etag-b"])`)).holds).toBe(true);
    expect((await evaluate(`</dav/r/b.txt> (["etag-a"])`)).holds).toBe(false);
    expect((await evaluate(`</elsewhere/x> (Not <DAV:no-lock>)`)).holds).toBe(false);
    expect(await evaluate(`</dav/r/a.txt> (<${T1}>)`, '/r/b.txt')).toEqual({ holds: true, submitted: new Set([T1]) });
  });

  it('gives a missing resource no ETag', async () => {
    expect((await evaluate('(["etag-a"])', '/r/missing')).holds).toBe(false);
    expect((await evaluate('(Not ["etag-a"])', '/r/missing')).holds).toBe(true);
  });
});

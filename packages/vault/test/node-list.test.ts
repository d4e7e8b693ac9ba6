// A directory's entries are kept as their JSON bytes while it is open (NodeList); its tree blob
// must be byte for byte what the whole-array serialisation gave, or unchanged directories would
// get new tree ids (and be stored again) after an upgrade.
import { describe, expect, it } from 'vitest';
import { NodeList, type TreeNode } from '../src/tree.js';

function node(i: number, name: string): TreeNode {
  const n: TreeNode = { name, type: i % 7 === 0 ? 'dir' : 'file', mode: 0o644, mtimeMs: 1_700_000_000_123.5 + i, size: i * 13 };
  if (i % 7 === 0) n.subtree = 'ab'.repeat(32);
  else {
    n.hash = (i % 251).toString(16).padStart(2, '0').repeat(32);
    // A few entries with thousands of chunks: larger than a piece of the list.
    n.chunks = Array.from({ length: i % 997 === 0 ? 20_000 : 1 }, (_, k) => `${k}`.padStart(64, 'c'));
  }
  if (i % 5 === 0) n.ctimeMs = i;
  return n;
}

/** What saveTree wrote from an array of nodes. */
const wholeArray = (nodes: TreeNode[]) => Buffer.from(JSON.stringify({ nodes: [...nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) }));

describe('NodeList', () => {
  it('gives the same tree blob as the array it replaces, names in any script and order', () => {
    const names = ['보고서', 'report', 'Zeta', 'émile', '😀 smile', '\uE000 private', 'a"quote', 'back\\slash', '회의록 2026', 'z'];
    const nodes: TreeNode[] = [];
    for (let i = 0; i < 30_000; i++) nodes.push(node(i, `${names[(i * 7919) % names.length]}-${(i * 104_729) % 30_011}`));
    const list = new NodeList();
    for (const n of nodes) list.push(n);
    expect(list.length).toBe(nodes.length);
    expect([...list.nodes()]).toEqual(nodes);
    expect(list.blob().equals(wholeArray(nodes))).toBe(true);
    // The list gave its pieces up with the blob.
    expect(list.length).toBe(0);
  });

  it('gives an empty directory and a single entry as before', () => {
    expect(new NodeList().blob().equals(wholeArray([]))).toBe(true);
    const one = new NodeList();
    one.push(node(3, 'only'));
    expect(one.blob().equals(wholeArray([node(3, 'only')]))).toBe(true);
  });
});

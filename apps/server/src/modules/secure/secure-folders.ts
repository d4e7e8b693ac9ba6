import type { NodeRow } from '../files/ports.js';
import type { SecureRepo } from './secure.repo.js';

/**
 * Where secure (locked) folders lie relative to a node. A node is secure when it or a
 * folder above it is locked; a folder that is not secure may still hold locked folders,
 * whose bytes a zip of it would carry.
 */
export class SecureFolders {
  constructor(private readonly repo: SecureRepo) {}

  /** The node's id and those of every folder above it, nearest first. */
  async chainIds(nodeId: string): Promise<string[]> {
    return (await this.repo.chain(nodeId)).map((link) => link.id);
  }

  /** The nearest locked folder at or above the node, or undefined. */
  async lockAbove(node: NodeRow): Promise<string | undefined> {
    if (node.lock === 1) return node.id;
    return (await this.repo.chain(node.id)).find((link) => link.lock === 1)?.id;
  }

  /** The topmost locked folders inside a folder (none for a file). */
  async locksBelow(node: NodeRow): Promise<string[]> {
    return node.folder === 1 ? this.repo.topLocksBelow(node.id) : [];
  }

  /**
   * The nodes an approval must cover before the bytes of `node` may leave: the node itself
   * when it is secure; else the topmost locked folders inside it; none when it touches no lock.
   */
  async needed(node: NodeRow): Promise<string[]> {
    if (await this.lockAbove(node)) return [node.id];
    return this.locksBelow(node);
  }

  /** The locked folders whose security managers decide about `node` (none when it touches no lock). */
  async governing(node: NodeRow): Promise<string[]> {
    const above = await this.lockAbove(node);
    return above ? [above] : this.locksBelow(node);
  }

  /** True when one of `approved` (node ids) is `nodeId` or a folder above it. */
  async covered(nodeId: string, approved: Set<string>): Promise<boolean> {
    if (approved.has(nodeId)) return true;
    return (await this.chainIds(nodeId)).some((id) => approved.has(id));
  }
}

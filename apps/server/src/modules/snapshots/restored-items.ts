/** Told of the nodes a restore put back (new or found already in place). */
export type RestoredListener = (nodeIds: string[]) => Promise<void>;

/**
 * The seam for "share links expire when the file is restored" (spec, Sharing): the share
 * module registers a listener here and expires the links of the restored nodes. A
 * failing listener is logged; it never undoes a restore.
 */
export class RestoredItems {
  private readonly listeners: RestoredListener[] = [];

  listen(listener: RestoredListener): void {
    this.listeners.push(listener);
  }

  async notify(nodeIds: string[], onError: (error: unknown) => void): Promise<void> {
    if (nodeIds.length === 0) return;
    for (const listener of this.listeners) {
      try {
        await listener(nodeIds);
      } catch (error) {
        onError(error);
      }
    }
  }
}

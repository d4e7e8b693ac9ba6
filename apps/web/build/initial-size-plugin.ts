import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

interface ChunkInfo {
  fileName: string;
  code: string;
  imports: string[];
}

interface InitialSizeOptions {
  /** Path (relative to the app root) of the module the sign-in route loads lazily. */
  routeModule: string;
  /** Modules loaded lazily before the screen shows (the default language's catalogue), counted too. */
  alsoLoaded?: string[];
  /** The budget printed beside the size, in KB. */
  goalKb: number;
}

/** Every chunk reached from `start` through static imports, `start` included. */
export function staticClosure(start: string, chunks: Map<string, ChunkInfo>): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const fileName = pending.pop() as string;
    if (seen.has(fileName)) continue;
    seen.add(fileName);
    pending.push(...(chunks.get(fileName)?.imports ?? []));
  }
  return seen;
}

/**
 * After a build, prints the gzip size of the JavaScript the sign-in screen needs: the
 * entry chunk, the sign-in route's lazy chunk, and everything they import statically.
 */
export function initialSizePlugin({ routeModule, alsoLoaded = [], goalKb }: InitialSizeOptions): Plugin {
  let report = '';
  return {
    name: 'bogwan-initial-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      let entry: string | undefined;
      let route: string | undefined;
      const extra: string[] = [];
      const wanted = routeModule.replace(/\\/g, '/');
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.set(output.fileName, output);
        if (output.isEntry) entry = output.fileName;
        const facade = output.facadeModuleId?.replace(/\\/g, '/');
        if (facade?.endsWith(wanted)) route = output.fileName;
        if (alsoLoaded.some((module) => facade?.endsWith(module))) extra.push(output.fileName);
      }
      if (!entry) this.error('initial size: no entry chunk in the bundle');
      if (!route) this.error(`initial size: no chunk for ${routeModule}; is it still loaded lazily?`);
      if (extra.length !== alsoLoaded.length) this.error(`initial size: expected chunks for ${alsoLoaded.join(', ')}`);
      const files = new Set([...staticClosure(entry, chunks), ...staticClosure(route, chunks), ...extra.flatMap((file) => [...staticClosure(file, chunks)])]);
      const bytes = [...files].reduce((sum, file) => sum + gzipSync(chunks.get(file)?.code ?? '').length, 0);
      report = `Initial JavaScript for the sign-in screen: ${(bytes / 1024).toFixed(1)} KB gzip (goal ≤ ${goalKb} KB)`;
    },
    closeBundle() {
      if (report) console.log(report);
    },
  };
}

import path from 'node:path';
import { parseAst, type Plugin } from 'vite';

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

/** The identifier a chain of member reads and calls starts from (`z` for `z.string().min(1)`), if any. */
function chainRoot(node: Node): string | null {
  let current: Node = node;
  for (;;) {
    if (current.type === 'Identifier') return current.name as string;
    if (current.type === 'MemberExpression') current = current.object as Node;
    else if (current.type === 'CallExpression') current = current.callee as Node;
    else if (current.type === 'ChainExpression') current = current.expression as Node;
    else return null;
  }
}

/**
 * Every whole expression built on `root` by member reads and calls (`z.object({…}).optional()`),
 * outermost first and none inside another, as [start, end) ranges of the source.
 */
export function schemaChains(program: Node, root = 'z'): [number, number][] {
  const ranges: [number, number][] = [];
  const visit = (node: Node) => {
    if ((node.type === 'CallExpression' || node.type === 'MemberExpression') && chainRoot(node) === root) {
      ranges.push([node.start, node.end]);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type') continue;
      if (Array.isArray(value)) value.filter(isNode).forEach(visit);
      else if (isNode(value)) visit(value);
    }
  };
  visit(program);
  return ranges;
}

/** `code` with every schema chain on `z` replaced by `z` itself (the inert schema in the built app). */
export function withInertSchemas(code: string, program: Node): string {
  let out = code;
  for (const [start, end] of schemaChains(program).sort((a, b) => b[0] - a[0])) out = `${out.slice(0, start)}z${out.slice(end)}`;
  return out;
}

/**
 * For `vite build` with zod aliased to build/unchecked-zod.ts: the contracts' schema
 * definitions are reduced to `z` (every chain is the same inert schema there), so their
 * code, some 8 KB gzip on every page, is not shipped. Constants, rules and the call table
 * stay as written; `unchecked-contracts.test.ts` checks the contracts compiled this way.
 */
export function inertSchemasPlugin({ contractsDir }: { contractsDir: string }): Plugin {
  const inside = path.resolve(contractsDir) + path.sep;
  return {
    name: 'bogwan-inert-schemas',
    apply: 'build',
    // After TypeScript is compiled away: the AST is plain JavaScript.
    enforce: 'post',
    transform(code, id) {
      if (!id.startsWith(inside) || !/\bfrom\s*['"]zod['"]/.test(code)) return null;
      return { code: withInertSchemas(code, parseAst(code) as unknown as Node), map: null };
    },
  };
}

import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]@mdi\/js['"];?/g;

/**
 * `@mdi/js` is one module holding every icon, so a bundler puts every icon the app uses into
 * one shared chunk that the first screen loads. This replaces `import { mdiX } from '@mdi/js'`
 * with the icon's path string in the importing module, so each icon travels with the screens
 * that draw it (a few hundred bytes, repeated where several chunks use the same icon).
 */
export function inlineIconsPlugin(): Plugin {
  let icons: Record<string, string> | undefined;
  const iconsModule = () => (icons ??= createRequire(import.meta.url)('@mdi/js') as Record<string, string>);
  return {
    name: 'bogwan-inline-icons',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('node_modules') || !/\.[jt]sx?$/.test(id) || !code.includes('@mdi/js')) return null;
      const replaced = code.replace(IMPORT, (_all, names: string) =>
        names
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
          .map((part) => {
            const [imported, local = imported] = part.split(/\s+as\s+/).map((s) => s.trim());
            const path = iconsModule()[imported!];
            if (typeof path !== 'string') this.error(`@mdi/js has no icon ${imported}`);
            return `const ${local} = ${JSON.stringify(path)};`;
          })
          .join('\n'),
      );
      return replaced === code ? null : { code: replaced, map: null };
    },
  };
}

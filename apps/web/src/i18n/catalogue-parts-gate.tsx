import type { ReactNode } from 'react';
import { useCataloguePart } from './index';
import type { CataloguePart } from './catalogue-parts';

/**
 * Renders `children` once the texts of `parts` are there (suspends until then; needs a
 * Suspense boundary above). A component of its own, so that no hook runs after the wait:
 * React replays a component that suspended, and hooks first reached on that replay trip it.
 */
export function CatalogueParts({ parts, children }: { parts: readonly CataloguePart[]; children: ReactNode }) {
  useCataloguePart(...parts);
  return children;
}

import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders `children` (typically a lazy dialog) only once `open` has first been true, and from
 * then on keeps it mounted so its closing transition still plays. Until then the dialog's
 * code is not even downloaded: pages open without the code of dialogs nobody has opened.
 */
export function Deferred({ open, children }: { open: boolean; children: ReactNode }) {
  const [shown, setShown] = useState(open);
  if (open && !shown) setShown(true);
  return shown ? <Suspense fallback={null}>{children}</Suspense> : null;
}

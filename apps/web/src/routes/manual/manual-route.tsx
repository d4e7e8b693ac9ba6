import { GuideView } from '../../features/guide/components/guide-view';

/** /manual: the manual (every function, administration included) as a PDF, shown and downloadable. */
export function ManualRoute() {
  return <GuideView document="manual" />;
}

import { GuideView } from '../../features/guide/components/guide-view';

/** /guide: the user guide as a PDF, shown and downloadable. */
export function GuideRoute() {
  return <GuideView document="guide" />;
}

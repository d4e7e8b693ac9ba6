import { SharedPage } from '../../features/shares/components/shared-page';

/** /shared: documents shared with or by the user. */
export function SharedRoute() {
  return <SharedPage />;
}

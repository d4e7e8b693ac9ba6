import { RequestsPage } from '../../features/requests/components/requests-page';

/** /requests: download and share-link requests for secure folders. */
export function RequestsRoute() {
  return <RequestsPage />;
}

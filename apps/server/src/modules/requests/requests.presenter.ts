import type { ApprovalRequest, RequestStatus } from '@bogwan/contracts';
import type { UserRow } from '../users/users.repo.js';
import type { RequestItemRow, RequestRow } from './requests.repo.js';

const person = (user: UserRow | undefined, id: string) => (user ? { _id: user.id, name: user.name, email: user.email } : { _id: id, name: '', email: '' });

/** A request as the API answers it; `may` says what the caller may do with it. */
export function toApprovalRequest(
  row: RequestRow,
  items: RequestItemRow[],
  users: Map<string, UserRow>,
  may: { approve: boolean; cancel: boolean },
): ApprovalRequest {
  return {
    _id: row.id,
    type: row.type === 'share' ? 'share' : 'download',
    status: row.status as RequestStatus,
    requester: person(users.get(row.requester_id), row.requester_id),
    approver: row.approver_id ? person(users.get(row.approver_id), row.approver_id) : null,
    contents: items.map((item) => item.path),
    reason: row.reason,
    rejectReason: row.decision_reason,
    downloadLimit: row.download_limit,
    downloadCount: row.downloads_done,
    downloadsLeft: Math.max(0, row.download_limit - row.downloads_used),
    used: row.used_at !== null,
    requestDate: row.created_at,
    approvalDate: row.approved_at,
    finalApprovalDate: row.final_approved_at,
    processingDate: row.processed_at,
    expiresAt: row.expires_at,
    canApprove: may.approve,
    canCancel: may.cancel,
  };
}

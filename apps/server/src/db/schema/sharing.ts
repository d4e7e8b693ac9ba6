// Tables of the schema (db/schema.ts): share links, approval requests and limited downloads.

/** An approval request for a secure folder: download or share-link creation. */
export interface RequestsTable {
  id: string;
  /** download or share. */
  type: string;
  /** PENDING, APPROVED, REJECTED, CANCELED or EXPIRED. */
  status: string;
  requester_id: string;
  approver_id: string | null;
  reason: string;
  decision_reason: string | null;
  download_limit: number;
  downloads_used: number;
  downloads_done: number;
  used_at: string | null;
  created_at: string;
  approved_at: string | null;
  final_approved_at: string | null;
  processed_at: string | null;
  expires_at: string;
  updated_at: string;
}

/** A path a request covers, by node id (stable across moves) and the path it had. */
export interface RequestItemsTable {
  request_id: string;
  node_id: string;
  path: string;
}

/** A share link: the random key (and its SHA-256 for lookups), the item and the link's rules. */
export interface SharesTable {
  id: string;
  key: string;
  key_hash: string;
  node_id: string;
  created_by: string;
  /** anyone, login, specific or private. */
  scope: string;
  password_hash: string | null;
  expires_at: string | null;
  download_limit: number | null;
  downloads_used: number;
  downloads_done: number;
  preview: number;
  request_id: string | null;
  expired_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A user or group a `specific` share link is meant for. */
export interface ShareRecipientsTable {
  share_id: string;
  entity_type: 'user' | 'group';
  entity_id: string;
}

/** A download in flight against a limited link (kind share) or an approved request (kind request). */
export interface DownloadReservationsTable {
  id: string;
  kind: 'share' | 'request';
  target_id: string;
  created_at: string;
}

/** Nonces of used single-use download tickets, kept until the tickets expire. */
export interface SpentTicketsTable {
  nonce: string;
  expires_at: string;
}

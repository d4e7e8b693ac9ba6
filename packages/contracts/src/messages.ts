/**
 * Message keys the server answers with in `{statusCode, message}`. The web translates
 * each one through its catalogues, so every key here must be in ko.json and en.json.
 */
export const MESSAGE_KEYS = [
  'request_error_message',
  'request_success_message',
  'invalid_request_message',
  'not_found_message',
  'unauthorized_message',
  'payload_too_large_message',
  'too_many_requests_message',
  'no_access_warning',
  'setup_token_invalid',
  'setup_already_done',
  'login_failure',
  'login_user_blocked',
  'login_user_pending',
  'login_attempt_restrict',
  'login_failure_otp',
  'login_failure_fingerprint',
  'otp_code_expired',
  'otp_code_sent_message',
  'register_otp_app_complete_message',
  'register_fingerprint_complete_message',
  'not_matched_origin_password',
  'password_change_complete_message',
  'license_required',
  'notice_title_required',
  'notice_content_required',
  'task_not_cancelable',
  'invalid_license',
  'license_update_complete_message',
  'license_seat_limit_reached',
  'rules_email_required',
  'rules_email_pattern',
  'rules_email_duplicate',
  'rules_name_required',
  'rules_name_pattern',
  'rules_password',
  'rules_password_pattern',
  'rules_folder',
  'invalid_path',
  'file_exists_warning',
  'folder_not_found',
  'volume_exceeded_warning',
  'move_into_itself_warning',
  'backend_mismatch_warning',
  'upload_chunk_invalid',
  'upload_size_mismatch',
  'upload_incomplete',
  'cloud_bucket_missing',
] as const;
export type MessageKey = (typeof MESSAGE_KEYS)[number];

/** Shape of every error answer. */
export interface ErrorResponse {
  statusCode: number;
  message: MessageKey | string;
}

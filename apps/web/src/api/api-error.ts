/** A failed API call: the HTTP status (0 when the server could not be reached) and the message key. */
export class ApiError extends Error {
  readonly status: number;
  readonly messageKey: string;

  constructor(status: number, messageKey: string) {
    super(messageKey);
    this.name = 'ApiError';
    this.status = status;
    this.messageKey = messageKey;
  }
}

/** Reads `{statusCode, message}` from an error answer; falls back to the generic key. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let key = 'request_error_message';
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message) {
      key = body.message;
    }
  } catch {
    // not JSON: keep the generic key
  }
  return new ApiError(response.status, key);
}

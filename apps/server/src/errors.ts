import type { MessageKey } from '@bogwan/contracts';

/** The one error type of the API: an HTTP status and a message key the web translates. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messageKey: MessageKey,
  ) {
    super(messageKey);
    this.name = 'AppError';
  }
}

export const badRequest = (key: MessageKey = 'invalid_request_message') => new AppError(400, key);
export const unauthorized = (key: MessageKey = 'unauthorized_message') => new AppError(401, key);
export const forbidden = (key: MessageKey = 'no_access_warning') => new AppError(403, key);
export const notFound = (key: MessageKey = 'not_found_message') => new AppError(404, key);
export const conflict = (key: MessageKey) => new AppError(409, key);

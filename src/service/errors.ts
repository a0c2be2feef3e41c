/**
 * Errors the use cases raise. They carry no HTTP: api/error-handler.ts maps each kind to a status
 * and the spec's error shape {statusCode, message, errorType, errorDetails}.
 */
export type ErrorDetails = Record<string, unknown>;

export abstract class ServiceError extends Error {
  abstract readonly kind: 'validation' | 'notFound' | 'conflict' | 'unauthorized' | 'tooLarge' | 'unsupportedMediaType' | 'quota' | 'forbidden';
  constructor(message: string, readonly errorType: string, readonly details: ErrorDetails = {}) {
    super(message);
  }
}

/** 400: the request is malformed; details map parameter name → messages. */
export class ValidationError extends ServiceError {
  readonly kind = 'validation';
  constructor(details: Record<string, string[]>, message = 'Request is invalid', errorType = 'RequestValidation') {
    super(message, errorType, details);
  }
  static of(param: string, ...messages: string[]): ValidationError {
    return new ValidationError({ [param]: messages });
  }
}

/** 404 that never reveals whether another account owns the item. */
export class NotFoundError extends ServiceError {
  readonly kind = 'notFound';
  /** `message`: when the item exists in another form and the usual wording would deny it (an impact session has no outliers). */
  constructor(readonly itemType: string, readonly itemId: string, message = `Item of type ${itemType} with identifier ${itemId} was not found`) {
    super(message, 'NotFound', { itemType, itemId });
  }
}

export class ConflictError extends ServiceError {
  readonly kind = 'conflict';
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, 'Conflict', details);
  }
}

export class UnauthorizedError extends ServiceError {
  readonly kind = 'unauthorized';
  constructor(message = 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.', errorType = 'Unauthorized') {
    super(message, errorType);
  }
}

export class TooLargeError extends ServiceError {
  readonly kind = 'tooLarge';
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, 'RequestTooLarge', details);
  }
}

/** 415 for a Content-Encoding the server does not decode. */
export class UnsupportedEncodingError extends ServiceError {
  readonly kind = 'unsupportedMediaType';
  constructor(encoding: string) {
    super(`Content-Encoding '${encoding}' is not supported; send the body uncompressed`, 'UnsupportedMediaType', { contentEncoding: encoding, accepted: ['identity'] });
  }
}

export class UnsupportedMediaTypeError extends ServiceError {
  readonly kind = 'unsupportedMediaType';
  constructor(contentType: string, accepted: string[]) {
    super(`Content-Type '${contentType}' is not supported here; send ${accepted.join(' or ')}`, 'UnsupportedMediaType', { contentType, accepted });
  }
}

export class QuotaError extends ServiceError {
  readonly kind = 'quota';
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, 'QuotaExceeded', details);
  }
}

/** 429 for too many sign-in, sign-up or reset attempts; `retryAfterSeconds` becomes the Retry-After header. */
export class TooManyAttemptsError extends ServiceError {
  readonly kind = 'quota';
  constructor(message: string, retryAfterSeconds: number) {
    super(message, 'TooManyAttempts', { retryAfterSeconds });
  }
}

/** 403: the caller is known but may not do this (sign-up switched off, a request without its CSRF token). */
export class ForbiddenError extends ServiceError {
  readonly kind = 'forbidden';
  constructor(message: string, errorType = 'Forbidden', details: ErrorDetails = {}) {
    super(message, errorType, details);
  }
}

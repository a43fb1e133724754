/**
 * Errors shared by server and web. A service throws a DomainError with a code; the server's one error
 * handler maps the code to CONTRACT's status and body ("Errors and access").
 */
export const ERROR_CODE = {
  badRequest: 'BAD_REQUEST',
  validation: 'VALIDATION',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  tooLarge: 'TOO_LARGE',
  rateLimited: 'RATE_LIMITED',
  /** ADR 0073: the storage is full (a disk, a storage quota); the server stores nothing until room is made. */
  insufficientStorage: 'INSUFFICIENT_STORAGE',
} as const;
export type ErrorCode = (typeof ERROR_CODE)[keyof typeof ERROR_CODE];

/** CONTRACT "Errors and access": the status each code answers with. */
export const HTTP_STATUS_BY_ERROR_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INSUFFICIENT_STORAGE: 507,
};

export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldErrors | undefined;

  constructor(code: ErrorCode, message?: string, errors?: FieldErrors) {
    super(message ?? code);
    this.name = 'DomainError';
    this.code = code;
    this.errors = errors;
  }
}

/** The JSON body of every 4xx answer (CONTRACT "Errors and access"). */
export interface ErrorBody {
  message?: string;
  errors?: FieldErrors;
}

/** SPEC §8 "Transport" and the generic fallbacks, exactly worded. */
export const TRANSPORT_MESSAGE = {
  badResponse: 'Bad response from server',
  accessTokenMissing: 'Access Token is missing',
  somethingWentWrong: 'Something went wrong',
  // Not a SPEC text (ADR 0039): a form route that takes text fields only refuses a file part when it starts.
  formTakesNoFiles: 'This form takes text fields only, no files',
} as const;

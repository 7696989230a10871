// The error catalogue (spec/01 §8) plus the codes this implementation adds, with one code → HTTP
// status map. Server, web and CLI all speak these codes; i18n/errors.ts words them in en, pt, es
// (add a code here and its three messages there: a test fails otherwise).
import { ERROR_TRANSLATIONS } from './i18n/errors.ts';

export const ERROR_STATUS = {
  // spec/01 §8
  ERR_INTERNAL_SERVER_ERROR: 500,
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_USER_DONT_EXISTS: 404,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // added by this implementation
  ERR_VALIDATION: 400,
  ERR_INVALID_JSON: 400,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_ROUTE_NOT_FOUND: 404,
  ERR_NOT_FOUND: 404,
  ERR_TOKEN_EXPIRED: 403,
  ERR_SUBSCRIPTION_EXPIRED: 402,
  ERR_COMPANY_INACTIVE: 403,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_EMAIL_IN_USE: 409,
  ERR_PLAN_DUPLICATED: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_NO_PLAN_FOUND: 404,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_HELP_FOUND: 404,
  ERR_USER_LIMIT_REACHED: 403,
  ERR_INVALID_RESET_CODE: 400,
  ERR_CANNOT_DELETE_SELF: 400,
  /** Demoting or deleting the company's only admin would leave nobody to administer it. */
  ERR_LAST_ADMIN: 409,
  /** A message was in flight when the server stopped (DESIGN §12): never re-sent on its own. */
  ERR_SEND_UNCONFIRMED: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

export type ValidationIssue = { path: string; message: string };

/** The one error type of the product: a catalogue code, a readable message, and optional details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues: ValidationIssue[] | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    extra: { issues?: ValidationIssue[]; details?: Record<string, unknown> } = {},
  ) {
    super(message ?? ERROR_TRANSLATIONS.en[code]);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.issues = extra.issues;
    this.details = extra.details;
  }

  toBody(): Record<string, unknown> {
    return {
      error: this.code,
      message: this.message,
      ...(this.issues ? { issues: this.issues } : {}),
      ...this.details,
    };
  }
}

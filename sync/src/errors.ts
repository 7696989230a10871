// The error catalogue (spec/01 §8) plus the codes this implementation adds, with one code → HTTP
// status map. Server, web and CLI all speak these codes; i18n/errors.ts words them in en, pt, es
// (add a code here and its three messages there: a test fails otherwise).
import { ERROR_TRANSLATIONS } from './i18n/errors.ts';

// Where each code of spec/01 §8 is raised (each only for its meaning):
export const ERROR_STATUS = {
  // spec/01 §8
  /** Anything unexpected (http/errors.ts): never a stack trace. */
  ERR_INTERNAL_SERVER_ERROR: 500,
  /** Un-defaulting the default connection (pick another default instead). */
  ERR_NO_OTHER_WHATSAPP: 400,
  /** A ticket or a schedule needs the company's default connection and there is none. */
  ERR_NO_DEF_WAPP_FOUND: 404,
  /** A session command, send or simulator control on a connection whose session is not running here. */
  ERR_WAPP_NOT_INITIALIZED: 400,
  /** The network could not answer whether a number is on WhatsApp (external API, Baileys). */
  ERR_WAPP_CHECK_CONTACT: 400,
  /** The number is not on WhatsApp (sends, external API). */
  ERR_WAPP_INVALID_CONTACT: 400,
  /** Not raised: an inbound file that cannot be downloaded arrives as a message without its file. */
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  /** Wrong email or password at login. */
  ERR_INVALID_CREDENTIALS: 401,
  /** Password reset for an email nobody uses. */
  ERR_USER_DONT_EXISTS: 404,
  /** A send the network refused for good (the message's failure reason). */
  ERR_SENDING_WAPP_MSG: 400,
  /** The network refused to delete a sent message for everyone. */
  ERR_DELETE_WAPP_MSG: 400,
  /** Creating a ticket for a contact that has an open or pending one on that connection. */
  ERR_OTHER_OPEN_TICKET: 409,
  /** No, a revoked or an unknown session; a refresh token spent or expired. */
  ERR_SESSION_EXPIRED: 401,
  /** Public sign-up of a company while the platform's administrator closed it (SIGNUP=0). */
  ERR_USER_CREATION_DISABLED: 403,
  /** A role, permission key, plan flag or plan limit refuses the action. */
  ERR_NO_PERMISSION: 403,
  /** A contact number the company already has (create, update, import). */
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  /** A message row (an agent's, the bot's, a schedule's, the external API's) was not written. */
  ERR_CREATING_MESSAGE: 500,
  /** A ticket row (pipeline, external API, schedules) was not written. */
  ERR_CREATING_TICKET: 500,
  /** Deleting a message WhatsApp never received (still queued, failed or unconfirmed). */
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
  /** A contact row could not be written (the catalogue's ERR_CREATING_* family, for contacts). */
  ERR_CREATING_CONTACT: 500,
  /** An invoice that does not exist or belongs to another company (billing). */
  ERR_NO_INVOICE_FOUND: 404,
  /** Checkout of an invoice that is already paid. */
  ERR_INVOICE_ALREADY_PAID: 409,
  /** Checkout while the super-admin has not set the platform's Pix key, name and city. */
  ERR_PIX_NOT_CONFIGURED: 409,
  /** A payment webhook whose signature is missing or wrong (or webhooks are not configured). */
  ERR_INVALID_SIGNATURE: 401,
  /** A company webhook's URL that is not http(s) or reaches a loopback, private, link-local, CGNAT, multicast or metadata address. */
  ERR_WEBHOOK_URL_FORBIDDEN: 400,
  /** A contact list that a programmed or running campaign sends to. */
  ERR_CONTACT_LIST_IN_USE: 409,
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

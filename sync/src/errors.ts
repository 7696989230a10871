// The error catalogue (spec/01 §8) plus the codes this implementation adds, with one code → HTTP
// status map. Server, web and CLI all speak these codes; the i18n resources translate them.

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
    super(message ?? ERROR_MESSAGES_EN[code]);
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

/** Server-side default wording; user interfaces translate the code with the i18n resources. */
export const ERROR_MESSAGES_EN: Record<ErrorCode, string> = {
  ERR_INTERNAL_SERVER_ERROR: 'An unexpected error occurred. Please try again later.',
  ERR_NO_OTHER_WHATSAPP: 'There must be at least one default WhatsApp connection.',
  ERR_NO_DEF_WAPP_FOUND: 'No default WhatsApp connection found.',
  ERR_WAPP_NOT_INITIALIZED: 'The WhatsApp session is not initialized.',
  ERR_WAPP_CHECK_CONTACT: 'The WhatsApp contact could not be verified.',
  ERR_WAPP_INVALID_CONTACT: 'This is not a valid WhatsApp number.',
  ERR_WAPP_DOWNLOAD_MEDIA: 'The media could not be downloaded from WhatsApp.',
  ERR_INVALID_CREDENTIALS: 'Authentication error: check the email and password.',
  ERR_USER_DONT_EXISTS: 'User not found: check the email.',
  ERR_SENDING_WAPP_MSG: 'Error sending the WhatsApp message.',
  ERR_DELETE_WAPP_MSG: 'The WhatsApp message could not be deleted.',
  ERR_OTHER_OPEN_TICKET: 'An open ticket already exists for this contact.',
  ERR_SESSION_EXPIRED: 'Session expired. Please log in.',
  ERR_USER_CREATION_DISABLED: 'User creation was disabled by the administrator.',
  ERR_NO_PERMISSION: 'You have no permission to access this resource.',
  ERR_DUPLICATED_CONTACT: 'A contact with this number already exists.',
  ERR_NO_SETTING_FOUND: 'No setting found with this ID.',
  ERR_NO_CONTACT_FOUND: 'No contact found with this ID.',
  ERR_NO_TICKET_FOUND: 'No ticket found with this ID.',
  ERR_NO_USER_FOUND: 'No user found with this ID.',
  ERR_NO_WAPP_FOUND: 'No WhatsApp connection found with this ID.',
  ERR_CREATING_MESSAGE: 'Error creating the message in the database.',
  ERR_CREATING_TICKET: 'Error creating the ticket in the database.',
  ERR_FETCH_WAPP_MSG: 'The message is too old to be fetched from WhatsApp.',
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 'This queue color is already in use.',
  ERR_WAPP_GREETING_REQUIRED: 'A greeting message is required when there is more than one queue.',
  ERR_VALIDATION: 'The request has invalid fields.',
  ERR_INVALID_JSON: 'The request body is not valid JSON.',
  ERR_PAYLOAD_TOO_LARGE: 'The request body is too large.',
  ERR_UNSUPPORTED_MEDIA_TYPE: 'This content type is not accepted here.',
  ERR_ROUTE_NOT_FOUND: 'There is no such endpoint.',
  ERR_NOT_FOUND: 'Nothing found with this ID.',
  ERR_TOKEN_EXPIRED: 'The access token expired: refresh it.',
  ERR_SUBSCRIPTION_EXPIRED: 'The subscription has expired. Please contact support.',
  ERR_COMPANY_INACTIVE: 'This company is inactive. Please contact support.',
  ERR_TOO_MANY_REQUESTS: 'Too many attempts. Please wait and try again.',
  ERR_EMAIL_IN_USE: 'This email is already in use.',
  ERR_PLAN_DUPLICATED: 'Could not save the plan: check for a duplicate name or missing fields.',
  ERR_PLAN_IN_USE: 'This plan is used by companies and cannot be deleted.',
  ERR_NO_PLAN_FOUND: 'No plan found with this ID.',
  ERR_NO_COMPANY_FOUND: 'No company found with this ID.',
  ERR_NO_HELP_FOUND: 'No help video found with this ID.',
  ERR_USER_LIMIT_REACHED: "The plan's user limit has been reached.",
  ERR_INVALID_RESET_CODE: 'The reset code is invalid or has expired.',
  ERR_CANNOT_DELETE_SELF: 'You cannot delete your own account.',
};

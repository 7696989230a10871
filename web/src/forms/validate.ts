// Form validation with the shared zod schemas (sync/src/domain): the same rules the server applies,
// with the schemas' English messages mapped to i18n keys so the user reads them in their language.
import type { z } from 'zod';

export type FieldErrors = Record<string, string>;
type Translate = (key: string, options?: Record<string, unknown>) => string;

// The messages the shared schemas write, and the key that words each one.
const KNOWN: Record<string, string> = {
  'Too Short!': 'validation.tooShort',
  'Too Long!': 'validation.tooLong',
  Required: 'validation.required',
  // The Portuguese messages of the schedule and quick-message schemas (spec/02 §5).
  Obrigatório: 'validation.required',
  'Mensagem muito curta': 'validation.tooShort',
  'Invalid email': 'validation.email',
  'Needs an uppercase letter': 'validation.upper',
  'Needs a lowercase letter': 'validation.lower',
  'Needs a number': 'validation.digit',
  'Use (99) 99999-9999': 'validation.phone',
  'Choose a plan': 'validation.plan',
  'Must be a whole number': 'validation.wholeNumber',
  'Must be 0 or more': 'validation.nonNegative',
  'Invalid amount': 'validation.amount',
  'Give a YouTube video id or link': 'validation.video',
  'Give an http(s) link': 'validation.link',
  // Prompts and integrations (spec/03 §5), worded by their pages' strings.
  'Set a sector': 'prompts.setSector',
  'Use steps of 0.1': 'prompts.temperatureStep',
  'Paste the service account JSON': 'queue-integration.jsonInvalid',
  // Web-only rule: the confirmation of a new password.
  'Passwords differ': 'validation.passwordsDiffer',
};

/**
 * An issue's words. A field the spec's forms call required and the user left empty says 'Required'
 * (spec/03 §5), not 'Too short'; a text too short says how long it must be (`sent` is the field's value).
 */
export function issueMessage(issue: z.core.$ZodIssue, t: Translate, sent?: unknown): string {
  const empty = typeof sent === 'string' && sent.trim() === '';
  if (issue.message === 'Too Short!' && empty) return t('validation.required');
  if (issue.code === 'too_small' && issue.origin === 'string' && (issue.message === 'Too Short!' || !KNOWN[issue.message])) {
    return t('validation.tooShortMin', { count: Number(issue.minimum) });
  }
  // A number out of its range says the bound (a temperature of 1.5: "At most 1", not "Too long").
  if (issue.code === 'too_big' && issue.origin === 'number') return t('validation.atMost', { max: Number(issue.maximum) });
  if (issue.code === 'too_small' && issue.origin === 'number' && (issue.message === 'Too Short!' || !KNOWN[issue.message])) return t('validation.atLeast', { min: Number(issue.minimum) });
  const known = KNOWN[issue.message];
  if (known) return t(known);
  if (issue.code === 'too_small') return t('validation.tooShort');
  if (issue.code === 'too_big') return t('validation.tooLong');
  if (issue.code === 'invalid_type' && issue.input === undefined) return t('validation.required');
  return t('validation.invalid');
}

/** What the form holds at an issue's path (undefined where the path leads nowhere). */
function valueAt(values: unknown, path: readonly PropertyKey[]): unknown {
  let at = values;
  for (const key of path) at = at && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/** Parses `values` with `schema`; on failure, one translated message per field (the first issue wins). */
export function validate<S extends z.ZodType>(schema: S, values: unknown, t: Translate): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.') || '_';
    errors[field] ??= issueMessage(issue, t, valueAt(values, issue.path));
  }
  return { ok: false, errors };
}

/** A 400 ERR_VALIDATION body's issues, keyed by field, so server-side refusals land on the fields too. */
export function serverFieldErrors(issues: { path: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const i of issues) errors[i.path] ??= i.message;
  return errors;
}

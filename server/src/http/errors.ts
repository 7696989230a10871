import { AppError } from '@zapdesk/sync';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from '../log.ts';

/** Every failure leaves as `{error, message}` with a catalogue code; nothing else, never a stack. */
export function errorHandler(log: Logger) {
  return (err: Error, c: Context) => {
    const appError = toAppError(err);
    if (appError.status >= 500) {
      log.error('request failed', { method: c.req.method, path: c.req.path, error: err.stack ?? String(err) });
    }
    // The rest of an oversize body is never read: say the connection ends with this answer, so the
    // client opens a new one for its next request rather than reusing a socket the server drops.
    if (appError.code === 'ERR_PAYLOAD_TOO_LARGE') c.header('Connection', 'close');
    return c.json(appError.toBody(), appError.status as ContentfulStatusCode);
  };
}

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 413) return new AppError('ERR_PAYLOAD_TOO_LARGE');
    if (err.status === 404) return new AppError('ERR_ROUTE_NOT_FOUND');
    if (err.status === 401) return new AppError('ERR_SESSION_EXPIRED');
    if (err.status === 403) return new AppError('ERR_NO_PERMISSION');
    if (err.status < 500) return new AppError('ERR_VALIDATION', err.message || undefined);
  }
  return new AppError('ERR_INTERNAL_SERVER_ERROR');
}

export function notFoundHandler(c: Context) {
  const err = new AppError('ERR_ROUTE_NOT_FOUND', `There is no ${c.req.method} ${c.req.path}.`);
  return c.json(err.toBody(), 404);
}

// What a route's document says. Each module keeps its documents beside its routes (modules/*/openapi.ts)
// naming the very schema objects its handler parses, so the document and the validation are one thing.
import type { ErrorCode, PlanFeature } from '@zapdesk/sync';
import type { z } from 'zod';

export const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

/** How a caller proves who it is: a user's access token, the refresh cookie, a connection's token, a payment provider's signature. */
export type AuthScheme = 'bearer' | 'refreshCookie' | 'connectionToken' | 'webhookSignature';

/** A multipart body: the file field(s) and the text fields beside them. */
export type MultipartDoc = { file: string; many?: boolean; fields?: z.ZodType; description?: string };

/** An answer that is not JSON: a file, a CSV export, a stream of report lines. */
export type RawAnswer = { contentType: string; description: string };

export type RouteDoc = {
  summary?: string;
  description?: string;
  /** Empty: anyone may call it. */
  auth: AuthScheme[];
  /**
   * Path parameters. An error code: a numeric id read by parseId, refused with that code (404) when
   * it is not one; a schema: any other text parameter. Parameters not named here are numeric ids
   * refused with ERR_NOT_FOUND.
   */
  params?: Record<string, ErrorCode | z.ZodType>;
  query?: z.ZodType;
  /** The JSON body. */
  body?: z.ZodType;
  multipart?: MultipartDoc;
  /** The success answer; absent: a JSON answer not yet described, shown as a generic object. */
  answer?: z.ZodType | RawAnswer;
  status?: 200 | 201 | 202;
  /** The plan feature the route needs (refused with ERR_NO_PERMISSION). */
  plan?: PlanFeature;
  /** Role or permission checks beyond being signed in (refused with ERR_NO_PERMISSION). */
  guarded?: boolean;
  /** The codes the route's own work raises, beyond those its auth, parameters and body imply. */
  errors?: ErrorCode[];
};

export type RouteKey = `${Method} /${string}`;

/** The documents of one area (an OpenAPI tag). */
export type AreaDocs = { tag: string; description: string; routes: Partial<Record<RouteKey, RouteDoc>> };

export const area = (tag: string, description: string, routes: AreaDocs['routes']): AreaDocs => ({ tag, description, routes });

export const isRawAnswer = (answer: RouteDoc['answer']): answer is RawAnswer =>
  typeof answer === 'object' && answer !== null && 'contentType' in answer && !('_zod' in answer);

/** The answer of the routes that hand out a stored file (attachments, media). */
export const FILE_ANSWER: RawAnswer = { contentType: 'application/octet-stream', description: 'The stored file, with its name in Content-Disposition' };

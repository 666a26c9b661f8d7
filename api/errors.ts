/**
 * One error shape for every failure: { error: { code, message, fields? } }. A user-caused failure is
 * a 4xx with docs/product.md's message; anything else is a 500 and a bug.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { DASH } from "#core/dashboard-texts.ts";

const STATUS = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  /** The billing provider (or another service we depend on) failed; nothing was changed. */
  bad_gateway: 502,
  /** Busy for a moment (a full queue); the answer says when to retry. */
  unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof STATUS;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: Record<string, string>; details?: unknown };
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly fields?: Record<string, string>;
  readonly details?: unknown;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, extra: { fields?: Record<string, string>; details?: unknown; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.fields = extra.fields;
    this.details = extra.details;
    this.headers = extra.headers;
  }

  get status(): ContentfulStatusCode {
    return STATUS[this.code];
  }
}

/** A Plus-only feature asked for by an owner whose plan does not include it. */
export const plusRequired = (feature: string) => new ApiError("payment_required", DASH.plusTooltip, { details: { feature } });

/** Field path to its first message, e.g. { email: 'Please enter a valid email address' }. */
export function zodFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "_";
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

/** A zod failure as a 400 whose message is the first field's message. */
export function validationError(error: z.ZodError): ApiError {
  const fields = zodFields(error);
  const first = Object.values(fields)[0] ?? "Invalid request";
  return new ApiError("validation_failed", first, { fields });
}

/** An answer about one field, whose message is also the field's (shown beside it in the form). */
export const fieldError = (code: ErrorCode, field: string, message: string) => new ApiError(code, message, { fields: { [field]: message } });

/** What an error nobody expected answers: the cause goes to the log, never to the client. */
export const unexpectedError = () => new ApiError("internal", "Something went wrong. Please try again later.");

/** The JSON body of an error answer. */
export function errorBody(err: ApiError): ErrorBody {
  const body: ErrorBody = { error: { code: err.code, message: err.message } };
  if (err.fields) body.error.fields = err.fields;
  if (err.details !== undefined) body.error.details = err.details;
  return body;
}

export function errorResponse(c: Context, err: ApiError) {
  if (err.headers) for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
  return c.json(errorBody(err), err.status);
}

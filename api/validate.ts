/**
 * Request validation with core's zod schemas. Failures become our 400 shape with field messages;
 * the parsed output type flows to the route handler and, through AppType, to hc<AppType>.
 */
import { validator } from "hono/validator";
import type { z } from "zod";
import { ApiError, validationError } from "./errors.ts";

export function jsonBody<S extends z.ZodType>(schema: S) {
  return validator("json", (value) => {
    const result = schema.safeParse(value);
    if (!result.success) throw validationError(result.error);
    return result.data as z.output<S>;
  });
}

export function query<S extends z.ZodType>(schema: S) {
  return validator("query", (value) => {
    const result = schema.safeParse(value);
    if (!result.success) throw validationError(result.error);
    return result.data as z.output<S>;
  });
}

export function params<S extends z.ZodType>(schema: S) {
  return validator("param", (value) => {
    const result = schema.safeParse(value);
    if (!result.success) throw new ApiError("not_found", "Not found");
    return result.data as z.output<S>;
  });
}

/**
 * A JSON body validator whose request type (for hc<AppType>) is the schema's input and whose handler
 * type is its output, for schemas that transform (a handle becomes a url) or bodies split in parts.
 */
import type { MiddlewareHandler } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import { validationError } from "../errors.ts";

export function typedJson<In, Out>(parse: (value: unknown) => Out): MiddlewareHandler<any, string, { in: { json: In }; out: { json: Out } }> {
  return validator("json", (value) => parse(value)) as unknown as MiddlewareHandler<any, string, { in: { json: In }; out: { json: Out } }>;
}

export function schemaJson<S extends z.ZodType>(schema: S) {
  return typedJson<z.input<S>, z.output<S>>((value) => {
    const result = schema.safeParse(value);
    if (!result.success) throw validationError(result.error);
    return result.data;
  });
}

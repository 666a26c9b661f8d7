/**
 * The visitor's side of tips and paid downloads (ADR 231, 232). Published pages post their payment
 * forms here from any host, without cookies, so these routes are mounted before the same-origin
 * check (api/app.ts), like the visitor routes. The price is always the server's.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { PayFormSchema } from "#core/schemas/payments.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, validationError } from "../errors.ts";
import { startPayment } from "../services/sales.ts";
import { params } from "../validate.ts";

const LinkParamSchema = z.object({ linkId: z.string().min(1).max(64) });
/** A payment form holds an amount and a short note: a few kilobytes at most. */
const PAY_FORM_MAX_BYTES = 4 * 1024;

export function payRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      // POST /api/pay/:linkId - form {amount, custom?, note?, private?} from the page -> 303 to the hosted checkout
      .post(
        "/:linkId",
        bodyLimit({
          maxSize: PAY_FORM_MAX_BYTES,
          onError: () => {
            throw new ApiError("payload_too_large", "Request too large");
          },
        }),
        params(LinkParamSchema),
        async (c) => {
          let raw: Record<string, unknown>;
          try {
            raw = await c.req.parseBody();
          } catch {
            throw new ApiError("bad_request", "Invalid form");
          }
          // Text fields only: a file or a repeated field is not this form.
          const fields: Record<string, string> = {};
          for (const [k, v] of Object.entries(raw)) {
            if (typeof v !== "string") throw new ApiError("bad_request", "Invalid form");
            fields[k] = v;
          }
          const form = PayFormSchema.safeParse(fields);
          if (!form.success) throw validationError(form.error);
          const { url } = await startPayment(deps, c.req.valid("param").linkId, form.data);
          return c.redirect(url, 303);
        },
      )
  );
}

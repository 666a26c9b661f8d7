/**
 * The visitor's side of tips and paid downloads (ADR 231, 232). Published pages post their payment
 * forms here from any host, without cookies, so these routes are mounted before the same-origin
 * check (api/app.ts), like the visitor routes. The price is always the server's.
 */
import { Hono } from "hono";
import { z } from "zod";
import { PayFormSchema } from "#core/schemas/payments.ts";
import { limitBody } from "../body-limit.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, validationError } from "../errors.ts";
import { Readable } from "node:stream";
import { billingFor } from "../services/billing.ts";
import { downloadName, openDownloadFile } from "../services/download-files.ts";
import { creatorPageOf, saleReceipt, startPayment, useDownloadToken } from "../services/sales.ts";
import { CHECKOUT_REFUSALS, DOWNLOAD_REFUSALS, htmlRefusals } from "./pay-refusal.ts";
import { jsonBody, params, query } from "../validate.ts";
import { clientKey } from "../services/client-key.ts";
import { createRateLimiter, limitStoreFor } from "../services/rate-limit.ts";
import { CONNECT_MESSAGES } from "#core/connect.ts";
import type { TestModeProvider } from "../billing/test-mode/provider.ts";

const LinkParamSchema = z.object({ linkId: z.string().min(1).max(64) });
const TokenParamSchema = z.object({ token: z.string().min(1).max(200) });
const IdParamSchema = z.object({ id: z.string().min(1).max(100) });
const KeyQuerySchema = z.object({ key: z.string().min(1).max(100) });
/** The test provider's payment page: the buyer's e-mail and a test card. */
const TestPaySchema = z.object({ email: z.email("Please enter a valid email address").max(254), number: z.string().max(40).transform((v) => v.replace(/[\s-]/g, "")) });
/** A payment form holds an amount and a short note: a few kilobytes at most. */
const PAY_FORM_MAX_BYTES = 4 * 1024;
/** Checkouts started per visitor address: a burst of 20, then one every 6 seconds (no one pays faster). */
const PAY_BURST = 20;
export const PAY_RATE_LIMITED = "Too many payment attempts. Please wait a minute and try again.";

export function payRoutes(deps: AppDeps) {
  const limiter = createRateLimiter(PAY_BURST, 1 / 6, { now: () => deps.now(), store: limitStoreFor(deps.db), name: "pay" });
  const testMode = (): TestModeProvider => {
    const p = billingFor(deps).testMode;
    if (!p) throw new ApiError("not_found", CONNECT_MESSAGES.sessionNotFound);
    return p;
  };
  return (
    new Hono<AppEnv>()
      // GET /api/pay/download/:token - a buyer's signed download link: the file, as an attachment
      .get("/download/:token", htmlRefusals(DOWNLOAD_REFUSALS), params(TokenParamSchema), (c) => {
        const { file, name } = useDownloadToken(deps, c.req.valid("param").token);
        const opened = openDownloadFile(deps.env.DATA_DIR, file);
        if (!opened) throw new ApiError("gone", "This file is no longer available.");
        const filename = downloadName(file, name);
        const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
        return c.body(Readable.toWeb(opened.stream) as ReadableStream, 200, {
          "Content-Type": file.contentType,
          "Content-Length": String(opened.size),
          "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
          "X-Content-Type-Options": "nosniff",
        });
      })
      // GET /api/pay/sales/:id?key= - the success page: the buyer's own sale, its thank-you and download link
      .get("/sales/:id", params(IdParamSchema), query(KeyQuerySchema), (c) => c.json(saleReceipt(deps, c.req.valid("param").id, c.req.valid("query").key)))
      // GET /api/pay/test/sessions/:id - the test provider's payment page: what is paid for
      .get("/test/sessions/:id", params(IdParamSchema), (c) => c.json(testMode().connectSession(c.req.valid("param").id)))
      // POST /api/pay/test/sessions/:id - {email, number}: its Pay button -> {redirectUrl}
      .post("/test/sessions/:id", params(IdParamSchema), jsonBody(TestPaySchema), async (c) => c.json(await testMode().payConnectSession(c.req.valid("param").id, c.req.valid("json"))))
      // POST /api/pay/:linkId - form {amount, custom?, note?, private?} from the page -> 303 to the hosted checkout
      .post(
        "/:linkId",
        // A refusal answered to the page's form is a page the visitor can read (ADR 237).
        htmlRefusals(CHECKOUT_REFUSALS, (c) => creatorPageOf(deps, c.req.param("linkId") ?? "")),
        limitBody(PAY_FORM_MAX_BYTES, () => new ApiError("payload_too_large", "Request too large")),
        params(LinkParamSchema),
        async (c) => {
          // Each press makes a Checkout Session at the provider: a script cannot make thousands.
          if (!limiter.take(clientKey(c, deps.env.TRUST_PROXY))) throw new ApiError("rate_limited", PAY_RATE_LIMITED);
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

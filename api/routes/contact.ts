import { Hono } from "hono";
import { ContactMessageSchema } from "#core/schemas/contact-site.ts";
import { contactMessages } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../validate.ts";
import { clientKey } from "../services/client-key.ts";
import { createRateLimiter, limitStoreFor } from "../services/rate-limit.ts";
import { log } from "../log.ts";

/** Messages one client may send in a burst, and the window in which that allowance comes back. */
export const CONTACT_RATE_MAX = 5;
export const CONTACT_RATE_WINDOW_MS = 10 * 60_000;
export const CONTACT_RATE_LIMITED_MESSAGE = "Too many messages. Please try again later.";

/** The public contact form: stored in contact_messages and e-mailed to CONTACT_TO, rate-limited per client. */
export function contactRoutes({ db, env, mailer, now }: AppDeps) {
  const limiter = createRateLimiter(CONTACT_RATE_MAX, CONTACT_RATE_MAX / (CONTACT_RATE_WINDOW_MS / 1000), { now, store: limitStoreFor(db), name: "contact" });
  return (
    new Hono<AppEnv>()
      // POST /api/contact {name, email, message} -> 201 {ok: true}; 400 field messages; 429 too many
      .post("/", jsonBody(ContactMessageSchema), async (c) => {
        if (!limiter.take(clientKey(c, env.TRUST_PROXY))) {
          throw new ApiError("rate_limited", CONTACT_RATE_LIMITED_MESSAGE);
        }
        const input = c.req.valid("json");
        const id = newId();
        db.insert(contactMessages).values({ id, ...input }).run();
        try {
          await mailer.send({
            to: env.CONTACT_TO,
            replyTo: input.email,
            // Header text: line breaks would start new headers, so the name is kept to one line.
            subject: `Contact form: ${input.name.replace(/[\r\n]+/g, " ")}`,
            text: `From: ${input.name} <${input.email}>\nMessage id: ${id}\n\n${input.message}`,
          });
        } catch (err) {
          // The message is stored, so the visitor's part is done; the operator finds it by this id.
          log().error({ err, messageId: id }, "Contact message stored but not e-mailed");
        }
        return c.json({ ok: true }, 201);
      })
  );
}

import { Hono } from "hono";
import { ContactMessageSchema } from "#core/schemas/contact-site.ts";
import { contactMessages } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { jsonBody } from "../validate.ts";
import { clientKey } from "../services/client-key.ts";

export const CONTACT_RATE_MAX = 5;
export const CONTACT_RATE_WINDOW_MS = 10 * 60_000;

/** The public contact form: stored in contact_messages and e-mailed to CONTACT_TO, rate-limited per IP. */
export function contactRoutes({ db, env, mailer, now }: AppDeps) {
  const hits = new Map<string, number[]>();
  return (
    new Hono<AppEnv>()
      // POST /api/contact {name, email, message} -> 201 {ok: true}; 400 field messages; 429 too many
      .post("/", jsonBody(ContactMessageSchema), async (c) => {
        const ip = clientKey(c, env.TRUST_PROXY);
        const t = now().getTime();
        const recent = (hits.get(ip) ?? []).filter((x) => t - x < CONTACT_RATE_WINDOW_MS);
        if (recent.length >= CONTACT_RATE_MAX) {
          throw new ApiError("rate_limited", "Too many messages. Please try again later.");
        }
        recent.push(t);
        hits.set(ip, recent);
        const input = c.req.valid("json");
        db.insert(contactMessages).values({ id: newId(), ...input }).run();
        await mailer.send({
          to: env.CONTACT_TO,
          subject: `Contact form: ${input.name.replace(/[\r\n]+/g, " ")}`,
          text: `From: ${input.name} <${input.email}>\n\n${input.message}`,
        });
        return c.json({ ok: true }, 201);
      })
  );
}

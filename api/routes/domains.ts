/**
 * The owner's custom domain (ADR 240), and the check Caddy asks before it obtains a certificate.
 */
import { Hono } from "hono";
import { z } from "zod";
import { IdParamSchema } from "#core/dashboard-schemas.ts";
import { parseDomain } from "#core/domains.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { addDomain, checkDomainNow, domainHostLookup, domainView, ownDomain, removeDomain } from "../services/domains.ts";
import { runJobs } from "../jobs/runner.ts";
import { params } from "../validate.ts";

/** The body of an add: the field is checked by the domain rule itself (core/domains.ts), for its messages. */
const AddBodySchema = z.object({ domain: z.unknown() });

export function domainRoutes(deps: AppDeps) {
  const { db, env } = deps;
  const verified = domainHostLookup(db);
  return (
    new Hono<AppEnv>()
      // GET /api/domains/allowed?domain=… - Caddy's on_demand_tls ask: 200 only for a verified domain
      // (or its www / apex companion), 404 for any other name, 400 without one. No session needed.
      .get("/allowed", (c) => {
        const parsed = parseDomain(c.req.query("domain") ?? "");
        if (!parsed.ok) throw new ApiError("bad_request", parsed.message);
        if (!verified(parsed.ascii)) throw new ApiError("not_found", "Not a verified domain");
        return c.json({ ok: true as const });
      })
      .use(requireUser)
      // GET /api/domains - the owner's domain with its records and their states in words, or null,
      // and whether this server offers custom domains at all.
      .get("/", (c) => {
        const user = currentUser(c);
        const row = ownDomain(db, user.id);
        return c.json({ available: env.CUSTOM_DOMAIN_TARGET !== undefined, domain: row ? domainView(db, env, row, deps.now()) : null });
      })
      // POST /api/domains {domain} -> 201 the domain; 400 invalid, reserved or the operator's; 402 Lite;
      // 409 taken or one already; 404 when the server offers no custom domains.
      .post("/", async (c) => {
        const user = currentUser(c);
        let body: unknown;
        try {
          body = await c.req.json();
        } catch {
          throw new ApiError("bad_request", "Invalid JSON body");
        }
        const parsed = AddBodySchema.safeParse(body);
        const view = addDomain(deps, user.id, parsed.success ? parsed.data.domain : undefined);
        return c.json({ domain: view }, 201);
      })
      // POST /api/domains/:id/check - "Check now": the records looked up at once.
      .post("/:id/check", params(IdParamSchema), async (c) => {
        const user = currentUser(c);
        const view = await checkDomainNow(deps, user.id, c.req.valid("param").id);
        await runJobs(deps);
        return c.json({ domain: view });
      })
      // DELETE /api/domains/:id - the page goes back to its Plinth address.
      .delete("/:id", params(IdParamSchema), async (c) => {
        const user = currentUser(c);
        removeDomain(deps, user.id, c.req.valid("param").id);
        await runJobs(deps);
        return c.json({ ok: true as const });
      })
  );
}

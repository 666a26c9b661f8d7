/**
 * Visitor routes called by published pages (which may live on another static host):
 *   POST /api/visitor/track  {type:'page_view',username,referrer?} | {type:'link_click',username,linkId,referrer?} -> 204
 *   POST /api/visitor/lead   {linkId,email} -> 200 {downloadUrl}
 *   POST /api/visitor/report {username,reason,details?} -> 204
 * CORS for any origin, never with credentials; no cookies read or set; rate-limited per client, and
 * the two that send e-mail more tightly; lead mail is also capped per page and per recipient each
 * day (ADR 092). Responses may be read cross-origin (a page on a CDN).
 */
import { eq, sql } from "drizzle-orm";
import { isbot } from "isbot";
import { Hono, type Context, type MiddlewareHandler, type Next } from "hono";
import { cors } from "hono/cors";
import type { z } from "zod";
import { campaignOf } from "#core/campaign.ts";
import { LeadCaptureSchema, PageReportSchema, TrackEventSchema } from "#core/schemas/visitor.ts";
import { collectedLeads, pageReports, userProfiles } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { transaction } from "#db/client.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, validationError } from "../errors.ts";
import { createRateLimiter } from "../services/rate-limit.ts";
import { clientKey } from "../services/client-key.ts";
import { visitorHash } from "../services/analytics-store.ts";
import { reportPinnedVersion, reporterId } from "../services/admin-reports.ts";
import { countryOf } from "../services/country.ts";
import { createLiveLinks } from "../services/live-links.ts";
import { leadMailMessage, publishedLeadMagnet, releaseLeadMail, reserveLeadMail } from "../services/lead-mail.ts";

export const VISITOR_PREFIX = "/api/visitor/";

/** The CSRF guard does not apply to the visitor routes: they are cookie-less and cross-origin by design. */
export function exceptVisitorRoutes(guard: MiddlewareHandler): MiddlewareHandler {
  return (c, next) => (c.req.path.startsWith(VISITOR_PREFIX) ? next() : guard(c, next));
}

const TEXTS = {
  leadFailed: "Failed to send download link. Please try again.",
  rate: "Too many requests. Please try again later.",
  pageNotFound: "Page not found",
  linkNotFound: "Link not found",
  busy: "Too many requests. Please try again later.",
};

export function referrerDomain(ref: string | undefined): string | null {
  if (!ref) return null;
  try {
    const u = new URL(ref);
    return /^https?:$/.test(u.protocol) ? u.hostname.slice(0, 253) : null;
  } catch {
    return null;
  }
}

/**
 * The visitor's device class. No user agent, a known crawler, link-preview fetcher or HTTP library
 * (the maintained `isbot` list) or a headless browser is a bot: stored, never counted.
 */
export function deviceClass(ua: string | undefined): "mobile" | "tablet" | "desktop" | "bot" | "other" {
  if (!ua?.trim() || isbot(ua) || /bot|crawl|spider|slurp|headless/i.test(ua)) return "bot";
  if (/ipad|tablet/i.test(ua)) return "tablet";
  if (/mobi|iphone|android/i.test(ua)) return "mobile";
  if (/windows|macintosh|linux|cros/i.test(ua)) return "desktop";
  return "other";
}

async function readJson(c: { req: { text(): Promise<string> } }): Promise<unknown> {
  const raw = await c.req.text();
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError("bad_request", "Request body must be JSON");
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error);
  return r.data;
}

export function visitorRoutes(deps: AppDeps) {
  const limiter = createRateLimiter(30, 1, { now: deps.now });
  // Each lead or report sends an e-mail: a client gets 10 at once, then one every 6 seconds.
  const mailLimiter = createRateLimiter(10, 1 / 6, { now: deps.now });
  const isLive = createLiveLinks(deps.db);
  // Prepared once: every beacon asks it, and building the statement cost more than running it.
  const ownerByName = deps.db
    .select({ userId: userProfiles.userId, published: userProfiles.hasPublishedPage })
    .from(userProfiles)
    .where(eq(userProfiles.username, sql.placeholder("name")))
    .prepare();
  const ownerOf = (name: string) => ownerByName.get({ name });
  const limit = (which: typeof limiter) => async (c: Context, next: Next) => {
    if (!which.take(clientKey(c, deps.env.TRUST_PROXY))) throw new ApiError("rate_limited", TEXTS.rate);
    await next();
  };

  return new Hono<AppEnv>()
    .use("*", cors({ origin: "*", allowMethods: ["POST"], allowHeaders: ["content-type"], credentials: false, maxAge: 86400 }))
    .use("*", async (c, next) => {
      // The API's default is same-origin; a page on another host reads these answers (sendBeacon too).
      c.header("Cross-Origin-Resource-Policy", "cross-origin");
      await next();
    })
    .use("*", async (c, next) => (c.req.method === "OPTIONS" ? next() : limit(limiter)(c, next)))
    .use("/lead", limit(mailLimiter))
    .use("/report", limit(mailLimiter))
    .post("/track", async (c) => {
      const body = parse(TrackEventSchema, await readJson(c));
      const owner = ownerOf(body.username);
      if (!owner || !owner.published) throw new ApiError("not_found", TEXTS.pageNotFound);
      const at = deps.now();
      let linkId: string | null = null;
      if (body.type === "link_click") {
        // Only a link the published page shows now could have been clicked there.
        if (!isLive(owner.userId, body.linkId, at)) throw new ApiError("not_found", TEXTS.linkNotFound);
        linkId = body.linkId;
      }
      const userAgent = c.req.header("user-agent") ?? "";
      const device = deviceClass(userAgent);
      // The address is used for the country and the day's visitor hash, and never stored.
      const address = clientKey(c, deps.env.TRUST_PROXY);
      const campaign = body.type === "page_view" ? campaignOf(body.url) : null;
      const queued = deps.events.enqueue({
        userId: owner.userId,
        kind: body.type,
        linkId,
        occurredAt: at,
        referrerDomain: referrerDomain(body.referrer ?? c.req.header("referer")),
        device,
        country: device === "bot" ? null : countryOf(address),
        utmSource: campaign?.source ?? null,
        utmMedium: campaign?.medium ?? null,
        utmCampaign: campaign?.campaign ?? null,
        visitorHash: body.type === "page_view" && device !== "bot" ? visitorHash(deps.db, { userId: owner.userId, address, userAgent, now: at }) : null,
      });
      if (!queued) throw new ApiError("unavailable", TEXTS.busy, { headers: { "Retry-After": "1" } });
      return c.body(null, 204);
    })
    .post("/lead", async (c) => {
      const body = parse(LeadCaptureSchema, await readJson(c));
      const at = deps.now();
      // Only what the published page shows now, as it shows it: never a draft title or file (ADR 092).
      const magnet = publishedLeadMagnet(deps.db, body.linkId, deps.env.PUBLIC_ORIGIN, at);
      if (!magnet) throw new ApiError("not_found", TEXTS.linkNotFound);
      const place = reserveLeadMail(deps.db, magnet.userId, body.email, at);
      if (!place.ok) throw new ApiError("rate_limited", place.message);
      try {
        await deps.mailer.send(leadMailMessage(body.email, magnet, deps.env.PUBLIC_ORIGIN));
      } catch {
        releaseLeadMail(deps.db, place.id);
        throw new ApiError("unprocessable", TEXTS.leadFailed);
      }
      deps.db.insert(collectedLeads).values({ id: newId(), userId: magnet.userId, linkId: magnet.link.id, linkTitle: magnet.link.title, email: body.email, createdAt: at }).run();
      return c.json({ downloadUrl: magnet.downloadUrl });
    })
    .post("/report", async (c) => {
      const body = parse(PageReportSchema, await readJson(c));
      const owner = ownerOf(body.username);
      if (!owner || !owner.published) throw new ApiError("not_found", TEXTS.pageNotFound);
      const reporter = reporterId(deps.db, clientKey(c, deps.env.TRUST_PROXY));
      // The version the visitor saw is kept for the console: the one the page's first open report pinned.
      transaction(deps.db, (tx) => {
        tx.insert(pageReports).values({
          id: newId(),
          reportedUserId: owner.userId,
          reportedPageUsername: body.username,
          reason: body.reason,
          details: body.details,
          reporterIpHash: reporter,
          pinnedVersion: reportPinnedVersion(tx, owner.userId),
          createdAt: deps.now(),
        }).run();
      });
      // The report is stored; the notice to the team is best effort (spec: send-report-notification).
      const reportUrl = `${deps.env.PUBLIC_ORIGIN}/${body.username}`;
      try {
        await deps.mailer.send({
          to: deps.env.CONTACT_TO,
          subject: `Page reported: @${body.username} (${body.reason})`,
          text: `A visitor reported ${reportUrl}\n\nReason: ${body.reason}\nDetails: ${body.details || "(none)"}\n`,
        });
      } catch (err) {
        console.warn("Report notification failed", body.username, err);
      }
      return c.body(null, 204);
    });
}

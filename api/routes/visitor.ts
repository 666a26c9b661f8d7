/**
 * Visitor routes called by published pages (which may live on another static host):
 *   POST /api/visitor/track  {type:'page_view',username,referrer?} | {type:'link_click',username,linkId,referrer?} -> 204
 *   POST /api/visitor/lead   {linkId,email} -> 200 {downloadUrl}
 *   POST /api/visitor/report {username,reason,details?} -> 204
 * CORS for any origin, never with credentials; no cookies read or set; rate-limited per client, and
 * the two that send e-mail more tightly; lead mail is also capped per page and per recipient each
 * day (ADR 092). Responses may be read cross-origin (a page on a CDN).
 */
import type { IncomingMessage } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import { Hono, type Context, type MiddlewareHandler, type Next } from "hono";
import type { z } from "zod";
import { LeadCaptureSchema, PageReportSchema, TrackEventSchema } from "#core/schemas/visitor.ts";
import { collectedLeads, pageReports } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { transaction } from "#db/client.ts";
import { bodyTooLarge, JSON_BODY_LIMIT } from "../body-limit.ts";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError, validationError } from "../errors.ts";
import { createRateLimiter, limitStoreFor, type RateLimiter } from "../services/rate-limit.ts";
import { clientKey, requestHeader } from "../services/client-key.ts";
import { reportPinnedVersion, reporterId } from "../services/admin-reports.ts";
import { createLiveLinks } from "../services/live-links.ts";
import { leadMailMessage, publishedLeadMagnet, releaseLeadMail, reserveLeadMail } from "../services/lead-mail.ts";
import { log } from "../log.ts";

export const VISITOR_PREFIX = "/api/visitor/";

/**
 * The CSRF guard, the session and the owners' limits do not apply to the visitor routes: they are
 * cookie-less and cross-origin by design, and read their own bodies (bodyText).
 */
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

/** A request body read straight from Node's stream as text, at most JSON_BODY_LIMIT bytes. */
export function readIncoming(incoming: IncomingMessage): Promise<string> {
  if (Number(incoming.headers["content-length"] ?? 0) > JSON_BODY_LIMIT) return Promise.reject(bodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > JSON_BODY_LIMIT) {
        incoming.removeAllListeners("data");
        incoming.resume();
        reject(bodyTooLarge());
      } else chunks.push(chunk);
    });
    incoming.on("end", () => resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")));
    incoming.on("error", reject);
  });
}

/**
 * The body as text, at most JSON_BODY_LIMIT bytes. On the Node server it is read straight from the
 * socket's stream: a beacon then never builds a fetch Request, which cost more than the rest of it.
 */
async function bodyText(c: Context): Promise<string> {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming) return readIncoming(incoming);
  // app.request() in tests.
  const text = await c.req.text();
  if (Buffer.byteLength(text) > JSON_BODY_LIMIT) throw bodyTooLarge();
  return text;
}

function jsonOf(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError("bad_request", "Request body must be JSON");
  }
}

const readJson = async (c: Context): Promise<unknown> => jsonOf(await bodyText(c));

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error);
  return r.data;
}

/** A beacon as it arrived: its body, and what the request says about its sender. */
export interface Beacon {
  body: string;
  userAgent: string;
  referer: string | undefined;
  address: string;
}

/**
 * What every door to the visitor routes shares: the limits (one per server, whichever door a
 * request came through) and the rules of a beacon. The framework's route and the server's own
 * beacon listener (ADR 127) both take it from here.
 */
export interface VisitorDesk {
  limiter: RateLimiter;
  mailLimiter: RateLimiter;
  /** Queues one beacon's event, or throws the ApiError to answer. */
  track(beacon: Beacon): void;
  ownerOf(name: string): { userId: string; published: number; suspendedAt: number | null } | undefined;
}

const desks = new WeakMap<AppDeps, VisitorDesk>();

export function visitorDesk(deps: AppDeps): VisitorDesk {
  let desk = desks.get(deps);
  if (!desk) desks.set(deps, (desk = openDesk(deps)));
  return desk;
}

/** Every answer of a visitor route carries these (set before the route, so errors carry them too). */
export const VISITOR_HEADERS: [string, string][] = [
  // Any origin may call these, never with credentials; a page on another host reads the answers
  // (sendBeacon too), where the API's default is same-origin.
  ["Access-Control-Allow-Origin", "*"],
  ["Cross-Origin-Resource-Policy", "cross-origin"],
];

/** A suspended page is gone from the public: nothing there to view, click or report, as for one never published (ADR 117). */
const isPublic = (owner: ReturnType<VisitorDesk["ownerOf"]>): owner is NonNullable<typeof owner> => !!owner && !!owner.published && owner.suspendedAt === null;

/** Public owners remembered by name; past this many the memory starts again. */
const KNOWN_OWNERS_MAX = 10_000;

function openDesk(deps: AppDeps): VisitorDesk {
  // Prepared once on the driver itself: every beacon asks it, and building the query cost more than running it.
  const ownerByName = deps.db.$client.prepare<[string], { userId: string; published: number; suspendedAt: number | null }>(
    "SELECT user_id AS userId, has_published_page AS published, page_suspended_at AS suspendedAt FROM user_profiles WHERE username = ?",
  );
  // Under load the analytics writer commits every few milliseconds, which empties this connection's
  // page cache, so each lookup reads its pages again (about a sixth of a beacon's cost). A public
  // owner is therefore remembered until this connection writes anything (a publish, a suspension,
  // a rename or a deletion all do), and for at most a second against a change from another process.
  // What is not public is asked again every time, so a page is counted from its first publish.
  const changes = deps.db.$client.prepare<[], number>("SELECT total_changes()").pluck();
  const known = new Map<string, { owner: NonNullable<ReturnType<typeof ownerByName.get>>; changes: number; until: number }>();
  const ownerOf = (name: string) => {
    const seen = changes.get()!;
    const now = deps.now().getTime();
    const hit = known.get(name);
    if (hit && hit.changes === seen && now < hit.until) return hit.owner;
    const owner = ownerByName.get(name);
    if (known.size >= KNOWN_OWNERS_MAX) known.clear();
    if (isPublic(owner)) known.set(name, { owner, changes: seen, until: now + 1_000 });
    else known.delete(name);
    return owner;
  };
  const isLive = createLiveLinks(deps.db);
  return {
    limiter: createRateLimiter(30, 1, { now: deps.now, store: limitStoreFor(deps.db), name: "visitor" }),
    // Each lead or report sends an e-mail: a client gets 10 at once, then one every 6 seconds.
    mailLimiter: createRateLimiter(10, 1 / 6, { now: deps.now, store: limitStoreFor(deps.db), name: "visitor-mail" }),
    ownerOf,
    track(beacon) {
      const body = parse(TrackEventSchema, jsonOf(beacon.body));
      const owner = ownerOf(body.username);
      if (!isPublic(owner)) throw new ApiError("not_found", TEXTS.pageNotFound);
      const at = deps.now();
      let linkId: string | null = null;
      if (body.type === "link_click") {
        // Only a link the published page shows now could have been clicked there.
        if (!isLive(owner.userId, body.linkId, at)) throw new ApiError("not_found", TEXTS.linkNotFound);
        linkId = body.linkId;
      }
      // The address and the user agent give the country and the day's visitor hash; neither is stored.
      const queued = deps.events.enqueue({
        userId: owner.userId,
        kind: body.type,
        linkId,
        at: at.getTime(),
        referrer: body.referrer ?? beacon.referer,
        url: body.type === "page_view" ? body.url : undefined,
        userAgent: beacon.userAgent,
        address: beacon.address,
      });
      if (!queued) throw new ApiError("unavailable", TEXTS.busy, { headers: { "Retry-After": "1" } });
    },
  };
}

/** The rate-limit refusal every visitor route answers. */
export const rateLimited = () => new ApiError("rate_limited", TEXTS.rate);

export function visitorRoutes(deps: AppDeps) {
  const { limiter, mailLimiter, ownerOf, track } = visitorDesk(deps);
  // The sender's address, worked out once per request (it is the key of every limit here).
  const clients = new WeakMap<Context, string>();
  const clientOf = (c: Context) => {
    let key = clients.get(c);
    if (key === undefined) clients.set(c, (key = clientKey(c, deps.env.TRUST_PROXY)));
    return key;
  };
  const limit = (which: RateLimiter) => async (c: Context, next: Next) => {
    if (!which.take(clientOf(c))) throw rateLimited();
    await next();
  };

  return new Hono<AppEnv>()
    .use("*", async (c, next) => {
      for (const [name, value] of VISITOR_HEADERS) c.header(name, value);
      if (c.req.method !== "OPTIONS") return limit(limiter)(c, next);
      c.header("Access-Control-Allow-Methods", "POST");
      c.header("Access-Control-Allow-Headers", "content-type");
      c.header("Access-Control-Max-Age", "86400");
      return c.body(null, 204);
    })
    .use("/lead", limit(mailLimiter))
    .use("/report", limit(mailLimiter))
    .post("/track", async (c) => {
      track({ body: await bodyText(c), userAgent: requestHeader(c, "user-agent") ?? "", referer: requestHeader(c, "referer"), address: clientOf(c) });
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
      if (!isPublic(owner)) throw new ApiError("not_found", TEXTS.pageNotFound);
      const reporter = reporterId(deps.db, clientOf(c));
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
        log().warn({ err }, "Report notification failed");
      }
      return c.body(null, 204);
    });
}

/**
 * What the visitors of a published page may ask of the server (the routes: api/routes/visitor.ts):
 * count a view or a click, mail a lead magnet's download link, report the page. Each takes the raw
 * body (sendBeacon posts JSON as text/plain) and throws the ApiError to answer. A page that is not
 * public (never published, or suspended, ADR 117) takes nothing: as for a page nobody made.
 */
import type { z } from "zod";
import { LeadCaptureSchema, PageReportSchema, TrackEventSchema, VISITOR_MESSAGES } from "#core/schemas/visitor.ts";
import { transaction } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { collectedLeads, pageReports } from "#db/schema.ts";
import type { AppDeps } from "../context.ts";
import { ApiError, validationError } from "../errors.ts";
import { reportPinnedVersion, reporterId } from "./admin-reports.ts";
import { leadMailMessage, publishedLeadMagnet, releaseLeadMail, reserveLeadMail } from "./lead-mail.ts";
import { createLiveLinks } from "./live-links.ts";
import { log } from "../log.ts";

const TEXTS = { pageNotFound: "Page not found", linkNotFound: "Link not found" };

/** What the request says about the sender of a beacon: neither is stored (ADR 073). */
export interface BeaconSender {
  userAgent: string;
  /** The request's Referer, when the body names no referrer. */
  referer: string | undefined;
  /** The client's address key (client-key.ts). */
  address: string;
}

function parsed<S extends z.ZodType>(schema: S, body: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new ApiError("bad_request", "Request body must be JSON");
  }
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error);
  return r.data;
}

export function visitorService(deps: AppDeps) {
  const { db, env } = deps;
  // Every beacon asks this: prepared once on the driver.
  const ownerByName = db.$client.prepare<[string], { userId: string; published: number; suspendedAt: number | null }>(
    "SELECT user_id AS userId, has_published_page AS published, page_suspended_at AS suspendedAt FROM user_profiles WHERE username = ?",
  );
  const publicOwner = (username: string) => {
    const owner = ownerByName.get(username);
    if (!owner?.published || owner.suspendedAt !== null) throw new ApiError("not_found", TEXTS.pageNotFound);
    return owner;
  };
  const isLive = createLiveLinks(db);

  return {
    /** Queues a view or a click for the analytics writer; 503 with Retry-After when its queue is full. */
    track(body: string, sender: BeaconSender): void {
      const event = parsed(TrackEventSchema, body);
      const owner = publicOwner(event.username);
      const at = deps.now();
      // Only a link the published page shows now could have been clicked there.
      if (event.type === "link_click" && !isLive(owner.userId, event.linkId, at)) throw new ApiError("not_found", TEXTS.linkNotFound);
      const queued = deps.events.enqueue({
        userId: owner.userId,
        kind: event.type,
        linkId: event.type === "link_click" ? event.linkId : null,
        at: at.getTime(),
        referrer: event.referrer ?? sender.referer,
        url: event.type === "page_view" ? event.url : undefined,
        userAgent: sender.userAgent,
        address: sender.address,
      });
      if (!queued) throw new ApiError("unavailable", VISITOR_MESSAGES.rateLimited, { headers: { "Retry-After": "1" } });
    },

    /** Mails a live lead magnet's link and keeps the lead; only what the published page shows now, as it shows it (ADR 092). */
    async lead(body: string): Promise<{ downloadUrl: string }> {
      const lead = parsed(LeadCaptureSchema, body);
      const at = deps.now();
      const magnet = publishedLeadMagnet(db, lead.linkId, env.PUBLIC_ORIGIN, at);
      if (!magnet) throw new ApiError("not_found", TEXTS.linkNotFound);
      const place = reserveLeadMail(db, magnet.userId, lead.email, at);
      if (!place.ok) throw new ApiError("rate_limited", place.message);
      try {
        await deps.mailer.send(leadMailMessage(lead.email, magnet, env.PUBLIC_ORIGIN));
      } catch {
        releaseLeadMail(db, place.id);
        throw new ApiError("unprocessable", VISITOR_MESSAGES.leadFailed);
      }
      db.insert(collectedLeads).values({ id: newId(), userId: magnet.userId, linkId: magnet.link.id, linkTitle: magnet.link.title, email: lead.email, createdAt: at }).run();
      return { downloadUrl: magnet.downloadUrl };
    },

    /** Keeps a report for the console, with the version the visitor saw, and tells the team (best effort). */
    async report(body: string, address: string): Promise<void> {
      const report = parsed(PageReportSchema, body);
      const owner = publicOwner(report.username);
      const reporter = reporterId(db, address);
      // The version the visitor saw is kept for the console: the one the page's first open report pinned.
      transaction(db, (tx) => {
        tx.insert(pageReports)
          .values({
            id: newId(),
            reportedUserId: owner.userId,
            reportedPageUsername: report.username,
            reason: report.reason,
            details: report.details,
            reporterIpHash: reporter,
            pinnedVersion: reportPinnedVersion(tx, owner.userId),
            createdAt: deps.now(),
          })
          .run();
      });
      const reportUrl = `${env.PUBLIC_ORIGIN}/${report.username}`;
      try {
        await deps.mailer.send({
          to: env.CONTACT_TO,
          subject: `Page reported: @${report.username} (${report.reason})`,
          text: `A visitor reported ${reportUrl}\n\nReason: ${report.reason}\nDetails: ${report.details || "(none)"}\n`,
        });
      } catch (err) {
        log().warn({ err }, "Report notification failed");
      }
    },
  };
}

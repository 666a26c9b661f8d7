/**
 * The lead-magnet e-mail (ADR 092): sent only for a lead magnet the page's published version shows
 * right now, with the published title, description and file; capped per page and per recipient per
 * day in the database (so a restart forgets nothing); written as the creator's note in words Plinth
 * fixes, with the owner's text quoted as theirs.
 */
import { createHash } from "node:crypto";
import { and, count, eq, gt, lte, type SQL } from "drizzle-orm";
import { isMediaPath } from "#core/link-input.ts";
import { isWebUrl } from "#core/url-rule.ts";
import type { PageLink } from "#core/model.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import { transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { leadMailSends, links, userProfiles } from "#db/schema.ts";
import { planOf } from "#renderer/draft.ts";
import { lastPublishedSnapshot } from "#renderer/publish.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { quoted } from "../mail/quote.ts";

export const LEAD_MAIL_LIMITS = {
  /** Download links one page may have e-mailed in any 24 hours. */
  perPagePerDay: 200,
  /** Download links one address may receive in any 24 hours, from all pages together. */
  perRecipientPerDay: 3,
  dayMs: 24 * 60 * 60 * 1000,
} as const;

export const LEAD_MAIL_TEXTS = {
  pageCap: "This page has sent as many download links as it can today. Please try again tomorrow.",
  recipientCap: "This email address has received enough download links today. Please try again tomorrow.",
};

/**
 * Where a lead magnet's file is downloaded from: an http(s) URL, or a file Plinth stores. Checked
 * again as it is sent, by the rule the link was saved under: a row written some other way never
 * puts a script or a credential-carrying URL into a visitor's e-mail.
 */
export function downloadUrlOf(fileUrl: string | undefined, origin: string): string | null {
  if (!fileUrl) return null;
  if (isWebUrl(fileUrl)) return fileUrl;
  // An uploaded file lives at a root-relative media path; the e-mail needs the whole address.
  if (isMediaPath(fileUrl)) return origin + fileUrl;
  return null;
}

export interface PublishedLeadMagnet {
  userId: string;
  username: string;
  /** The published display name (the owner's text: see creatorNameOf). */
  displayName: string;
  /** The link as the published version has it (title, description and file), not the draft. */
  link: PageLink;
  downloadUrl: string;
}

/**
 * The lead magnet a visitor asked for, if the page's last published version shows it now (its
 * schedule and the owner's plan applied, as on the page). The link must still exist in the draft:
 * an owner who deletes it stops its mail at once, before publishing.
 */
export function publishedLeadMagnet(db: Db, linkId: string, origin: string, now: Date): PublishedLeadMagnet | null {
  const row = db
    .select({ profile: userProfiles })
    .from(links)
    .innerJoin(userProfiles, eq(userProfiles.userId, links.userId))
    .where(eq(links.id, linkId))
    .get();
  // A suspended page shows no lead magnet (ADR 117).
  if (!row || !row.profile.hasPublishedPage || row.profile.pageSuspendedAt) return null;
  const published = lastPublishedSnapshot(db, row.profile.userId);
  if (!published) return null;
  const link = visibleContentOf(published.snapshot, planOf(row.profile), now).links.find((l) => l.id === linkId);
  if (!link || link.linkType !== "lead_magnet") return null;
  const downloadUrl = downloadUrlOf(link.data.fileUrl, origin);
  if (!downloadUrl) return null;
  const { username, displayName } = published.snapshot.profile;
  return { userId: row.profile.userId, username, displayName, link, downloadUrl };
}

/** The address as the cap counts it: case and a +tag do not make another mailbox. */
export function recipientHash(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  const local = lower.slice(0, at).replace(/\+.*$/, "");
  return createHash("sha256").update(`${local}${lower.slice(at)}`).digest("hex");
}

/**
 * Count this e-mail against the day's caps, or say which cap it would break. Synchronous (one
 * SQLite transaction), so two requests at once cannot both take the last place. Rows older than a
 * day go first.
 */
export function reserveLeadMail(db: Db, pageUserId: string, email: string, now: Date): { ok: true; id: string } | { ok: false; message: string } {
  const since = new Date(now.getTime() - LEAD_MAIL_LIMITS.dayMs);
  const hash = recipientHash(email);
  return transaction(db, (tx) => {
    tx.delete(leadMailSends).where(lte(leadMailSends.sentAt, since)).run();
    const sent = (where: SQL) => tx.select({ n: count() }).from(leadMailSends).where(and(where, gt(leadMailSends.sentAt, since))).get()?.n ?? 0;
    if (sent(eq(leadMailSends.recipientHash, hash)) >= LEAD_MAIL_LIMITS.perRecipientPerDay) return { ok: false, message: LEAD_MAIL_TEXTS.recipientCap };
    if (sent(eq(leadMailSends.pageUserId, pageUserId)) >= LEAD_MAIL_LIMITS.perPagePerDay) return { ok: false, message: LEAD_MAIL_TEXTS.pageCap };
    const id = newId();
    tx.insert(leadMailSends).values({ id, pageUserId, recipientHash: hash, sentAt: now }).run();
    return { ok: true, id };
  });
}

/** A send that failed does not count. */
export function releaseLeadMail(db: Db, id: string): void {
  db.delete(leadMailSends).where(eq(leadMailSends.id, id)).run();
}

/**
 * The creator as the e-mail names them: the published display name when it is a plain name (letters,
 * digits, spaces and . , ' & ( ) -, up to 50 characters, nothing that reads as an address or a web
 * site), else "@username". A display name is the owner's free text: it may not carry a link, an
 * address or a sentence into a mail Plinth sends (ADR 092).
 */
export function creatorNameOf(displayName: string, username: string): string {
  const name = displayName.replace(/\s+/g, " ").trim();
  const plain = /^[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N} .,'&()-]{0,49}$/u.test(name) && !/[\p{L}\p{N}]\.[\p{L}\p{N}]/u.test(name);
  return plain ? name : `@${username}`;
}

/**
 * The e-mail (ADR 092): a note from the creator, in words Plinth fixes. It comes from "Ada Lovelace
 * via Plinth", thanks the reader for visiting "my page" and is signed by the creator; everything the
 * owner wrote is quoted as theirs, the only links are their page on Plinth and the download, and the
 * footer says Plinth sent it and how to report the page.
 */
export function leadMailMessage(to: string, magnet: PublishedLeadMagnet, origin: string): MailMessage {
  const pageUrl = `${origin}/${magnet.username}`;
  const creator = creatorNameOf(magnet.displayName, magnet.username);
  const handle = `@${magnet.username}`;
  const who = creator === handle ? handle : `${creator} (${handle})`;
  const host = new URL(magnet.downloadUrl).host;
  const where = magnet.downloadUrl.startsWith(`${origin}/`) ? "The file is stored on Plinth." : `The file is on ${host}, a site Plinth does not run.`;
  const description = magnet.link.data.description?.trim();
  const text = [
    "Hi,",
    "",
    "Thanks for visiting my page. Here is the download you asked for:",
    "",
    quoted(magnet.link.title),
    ...(description ? [">", quoted(description)] : []),
    "",
    "Download:",
    magnet.downloadUrl,
    where,
    "",
    `There is more on my page: ${pageUrl}`,
    "",
    who,
    "",
    "--",
    `Plinth sent this email for ${handle}, because this address was entered on ${pageUrl}.`,
    `The quoted text and the download are ${handle}'s, in their own words (not Plinth's).`,
    "If you did not ask for this, you can ignore this email: nothing more will be sent because of it.",
    `To report the page, open ${pageUrl} and choose Report at the bottom.`,
    "",
  ].join("\n");
  return { to, subject: `Your download from ${who}`, text, fromName: `${creator} via Plinth` };
}

/**
 * Reported pages and suspensions as the operator's console sees them (ADR 108, 109). A visitor's
 * report names its reporter by a keyed hash of the address and pins the version the page's first open
 * report saw. The queue groups open reports by page, newest first. Dismiss, reopen, suspend and
 * restore each change state, record it and (for suspend and restore) e-mail the owner in one
 * transaction; the second of two admins doing the same thing at once is told it is already done.
 */
import { createHmac } from "node:crypto";
import { and, desc, eq, isNotNull, isNull, max, or } from "drizzle-orm";
import { ADMIN_TEXTS, type AdminAction } from "#core/admin.ts";
import { PageSnapshotSchema } from "#core/model.ts";
import { durably, type Db } from "#db/client.ts";
import { pageReports, pageVersions, sessions, userProfiles, users } from "#db/schema.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { loadDraft } from "#renderer/draft.ts";
import { rerenderLastVersion, withPageLock } from "#renderer/publish.ts";
import { throughTarget, type TargetWriter } from "#renderer/publish-target.ts";
import { renderPage } from "#renderer/render.tsx";
import { writeSeoFiles } from "#renderer/seo-files.ts";
import { writeUnavailablePage } from "#renderer/suspension.ts";
import { serverSecret } from "../auth/server-secret.ts";
import type { AppDeps } from "../context.ts";
import { pagesOrigin } from "../env.server.ts";
import { ApiError } from "../errors.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { runJobs } from "../jobs/runner.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { quoted } from "../mail/quote.ts";
import { recordAdminAction } from "./admin-audit.ts";

type Admin = { id: string; email: string };

/** The reporter's stable id: HMAC-SHA256 of the address with a secret kept in the database. */
export function reporterId(db: Db, address: string): string {
  return createHmac("sha256", serverSecret(db, "reporter-id")).update(address).digest("hex");
}

/**
 * The version a new report of the page pins: the one its open reports already pinned, otherwise the
 * page's latest published version. Call inside the transaction that inserts the report.
 */
export function reportPinnedVersion(tx: Db, userId: string): number | null {
  const open = tx
    .select({ v: max(pageReports.pinnedVersion) })
    .from(pageReports)
    .where(and(eq(pageReports.reportedUserId, userId), isNull(pageReports.dismissedAt)))
    .get()?.v;
  if (open != null) return open;
  return tx.select({ v: max(pageVersions.version) }).from(pageVersions).where(eq(pageVersions.userId, userId)).get()?.v ?? null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** How many pages the queue lists at once: far above a real day's reports, and still bounded. */
const QUEUE_SHOWN = 200;

/**
 * Open reports grouped by page, the page reported most recently first, then the pages suspended
 * whose reports were all dismissed (so that they can still be restored here), suspended last first.
 */
export function reportQueue(db: Db) {
  const rows = db
    .select({ report: pageReports, userId: userProfiles.userId, username: userProfiles.username, email: users.email, suspendedAt: userProfiles.pageSuspendedAt, suspensionReason: userProfiles.pageSuspensionReason })
    .from(userProfiles)
    .innerJoin(users, eq(users.id, userProfiles.userId))
    .leftJoin(pageReports, and(eq(pageReports.reportedUserId, userProfiles.userId), isNull(pageReports.dismissedAt)))
    .where(or(isNotNull(pageReports.id), isNotNull(userProfiles.pageSuspendedAt)))
    .orderBy(desc(pageReports.createdAt), desc(userProfiles.pageSuspendedAt))
    .all();
  const pages = new Map<string, ReturnType<typeof pageOf>>();
  function pageOf(r: (typeof rows)[number]) {
    return {
      userId: r.userId,
      username: r.username,
      accountEmail: r.email,
      suspendedAt: iso(r.suspendedAt),
      suspensionReason: r.suspendedAt ? r.suspensionReason : null,
      pinnedVersion: null as number | null,
      lastReportedAt: null as string | null,
      firstReportedAt: null as string | null,
      reasons: [] as { reason: string; count: number }[],
      reports: [] as { id: string; reason: string; details: string; reporter: string | null; createdAt: string }[],
    };
  }
  for (const r of rows) {
    let page = pages.get(r.userId);
    if (!page) pages.set(r.userId, (page = pageOf(r)));
    if (!r.report) continue;
    const at = r.report.createdAt.toISOString();
    page.reports.push({ id: r.report.id, reason: r.report.reason, details: r.report.details, reporter: r.report.reporterIpHash, createdAt: at });
    page.lastReportedAt ??= at;
    page.firstReportedAt = at;
    page.pinnedVersion = r.report.pinnedVersion ?? page.pinnedVersion;
    const reason = page.reasons.find((x) => x.reason === r.report!.reason);
    if (reason) reason.count++;
    else page.reasons.push({ reason: r.report.reason, count: 1 });
  }
  const queue = [...pages.values()].slice(0, QUEUE_SHOWN);
  // A suspended page without open reports still shows the version its last reports pinned.
  for (const p of queue) if (p.reports.length === 0) p.pinnedVersion = lastPinned(db, p.userId);
  return queue.map((p) => ({ ...p, reasons: p.reasons.sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)) }));
}

/** The version the page's reports pinned: the open ones', else the most recent report's. */
function lastPinned(db: Db, userId: string): number | null {
  return (
    db
      .select({ version: pageReports.pinnedVersion })
      .from(pageReports)
      .where(and(eq(pageReports.reportedUserId, userId), isNotNull(pageReports.pinnedVersion)))
      .orderBy(pageReports.dismissedAt, desc(pageReports.createdAt))
      .get()?.version ?? null
  );
}
export type ReportedPage = ReturnType<typeof reportQueue>[number];

/**
 * The page as its reports pinned it (the open ones', else the last one's), rendered as it was
 * published, for the console to look at under a policy that runs no script.
 */
export function pinnedPageHtml(deps: AppDeps, userId: string): string {
  const { db, env } = deps;
  const pinned = lastPinned(db, userId);
  if (pinned === null) throw new ApiError("not_found", ADMIN_TEXTS.pinnedVersionGone);
  const row = db
    .select({ snapshot: pageVersions.snapshot })
    .from(pageVersions)
    .where(and(eq(pageVersions.userId, userId), eq(pageVersions.version, pinned)))
    .get();
  const draft = loadDraft(db, userId);
  if (!row || !draft) throw new ApiError("not_found", ADMIN_TEXTS.pinnedVersionGone);
  return renderPage({
    snapshot: PageSnapshotSchema.parse(row.snapshot),
    plan: draft.plan,
    now: deps.now(),
    origin: env.PUBLIC_ORIGIN,
    apiOrigin: env.PUBLIC_ORIGIN,
    pagesOrigin: pagesOrigin(env),
    mode: "published",
    assets: ensureSharedAssets(env.PUBLISHED_DIR),
  }).html;
}

/** The page's owner as the actions need it; 404 for an id that is no account. */
function ownerOf(tx: Db, userId: string) {
  const row = tx
    .select({ email: users.email, role: users.role, suspendedAt: users.suspendedAt, accountReason: users.suspensionReason, username: userProfiles.username, pageSuspendedAt: userProfiles.pageSuspendedAt, pageReason: userProfiles.pageSuspensionReason })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, userId))
    .get();
  if (!row) throw new ApiError("not_found", ADMIN_TEXTS.pageNotFound);
  return row;
}

/** Dismiss every open report of the page, with a note for the record. */
export function dismissReports(deps: AppDeps, admin: Admin, userId: string, note: string) {
  const at = deps.now();
  return durably(deps.db, (tx) => {
    const owner = ownerOf(tx, userId);
    const n = tx.update(pageReports).set({ dismissedAt: at }).where(and(eq(pageReports.reportedUserId, userId), isNull(pageReports.dismissedAt))).run().changes;
    if (n === 0) throw new ApiError("conflict", ADMIN_TEXTS.noOpenReports);
    record(tx, admin, at, "reports.dismiss", userId, owner.username, note, { openReports: n }, { openReports: 0 });
    return { dismissed: n };
  });
}

/** Undo of a dismissal: the reports the page's last dismissal closed are open again. */
export function reopenReports(deps: AppDeps, admin: Admin, userId: string, note: string) {
  const at = deps.now();
  return durably(deps.db, (tx) => {
    const owner = ownerOf(tx, userId);
    const last = tx.select({ at: max(pageReports.dismissedAt) }).from(pageReports).where(eq(pageReports.reportedUserId, userId)).get()?.at;
    if (!last) throw new ApiError("conflict", ADMIN_TEXTS.noDismissal);
    const open = tx.select({ id: pageReports.id }).from(pageReports).where(and(eq(pageReports.reportedUserId, userId), isNull(pageReports.dismissedAt))).all().length;
    const n = tx.update(pageReports).set({ dismissedAt: null }).where(and(eq(pageReports.reportedUserId, userId), eq(pageReports.dismissedAt, last))).run().changes;
    record(tx, admin, at, "reports.reopen", userId, owner.username, note, { openReports: open }, { openReports: open + n });
    return { reopened: n };
  });
}

function record(tx: Db, admin: Admin, at: Date, action: AdminAction, userId: string, label: string, reason: string, before: Record<string, unknown>, after: Record<string, unknown>) {
  recordAdminAction(tx, { at, actorId: admin.id, actor: admin.email, action, targetType: action.startsWith("account.") ? "user" : "page", targetId: userId, targetLabel: label, reason, before, after });
}

/** The reason quoted, and where to turn: the end of both suspension e-mails. */
const theReason = (reason: string, origin: string) => ["", "The reason given:", quoted(reason), "", `If you think this is a mistake, write to us at ${origin}/contact.`];

export function pageSuspendedMail(to: string, origin: string, username: string, reason: string): MailMessage {
  return {
    to,
    subject: "Your Plinth page has been suspended",
    text: [`Your page ${origin}/${username} has been suspended. Visitors now see "This page is unavailable" there, and you cannot publish until it is restored.`, ...theReason(reason, origin)].join("\n"),
  };
}

export function pageRestoredMail(to: string, origin: string, username: string): MailMessage {
  return {
    to,
    subject: "Your Plinth page has been restored",
    text: `Your page ${origin}/${username} has been restored: visitors see it again as you last published it, and you can publish again.`,
  };
}

const renderOpts = (deps: AppDeps) => ({ publishedDir: deps.env.PUBLISHED_DIR, origin: deps.env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(deps.env), now: deps.now() });

/** Inside a transaction: the page suspended, its folder holding the unavailable page. False when it already was. */
function suspendPageIn(tx: Db, deps: AppDeps, writer: TargetWriter, userId: string, username: string, reason: string, at: Date): boolean {
  const changed = tx.update(userProfiles).set({ pageSuspendedAt: at, pageSuspensionReason: reason }).where(and(eq(userProfiles.userId, userId), isNull(userProfiles.pageSuspendedAt))).run().changes;
  if (changed === 0) return false;
  // Under the database's write lock, which every writer of the page takes (ADR 097).
  writeUnavailablePage(deps.env.PUBLISHED_DIR, username, at, writer);
  return true;
}

/** Inside a transaction: the page back as last published (or no page, when it never was). False when it was not suspended. */
function restorePageIn(tx: Db, deps: AppDeps, writer: TargetWriter, userId: string, username: string): boolean {
  const changed = tx.update(userProfiles).set({ pageSuspendedAt: null, pageSuspensionReason: "" }).where(and(eq(userProfiles.userId, userId), isNotNull(userProfiles.pageSuspendedAt))).run().changes;
  if (changed === 0) return false;
  if (!rerenderLastVersion(tx, userId, { ...renderOpts(deps), writer })) writer.removePage(username);
  return true;
}

type Owner = ReturnType<typeof ownerOf>;

/**
 * One suspension or restore: under the page lock and the database's write lock, `change` makes it
 * and records it, and its e-mail to the owner is queued in the same transaction; then the sitemap
 * follows and the e-mail goes out.
 */
async function changeSuspension<T>(deps: AppDeps, userId: string, change: (tx: Db, owner: Owner, at: Date, writer: TargetWriter) => { mail: MailMessage; result: T }): Promise<T> {
  const at = deps.now();
  const result = await withPageLock(userId, () =>
    throughTarget(deps.target, (writer) => {
      const result = durably(deps.db, (tx) => {
        const done = change(tx, ownerOf(tx, userId), at, writer);
        enqueueJob(tx, { kind: "mail", payload: done.mail }, at);
        return done.result;
      });
      writer.putFiles(writeSeoFiles(deps.db, deps.env.PUBLISHED_DIR, pagesOrigin(deps.env)));
      return result;
    }),
  );
  await runJobs(deps);
  return result;
}

/** Suspend the page with the reason its owner reads; e-mailed to the owner. */
export function suspendPage(deps: AppDeps, admin: Admin, userId: string, reason: string) {
  return changeSuspension(deps, userId, (tx, owner, at, writer) => {
    if (!suspendPageIn(tx, deps, writer, userId, owner.username, reason, at)) throw new ApiError("conflict", ADMIN_TEXTS.alreadySuspended);
    record(tx, admin, at, "page.suspend", userId, owner.username, reason, { suspended: false }, { suspended: true, reason });
    return { mail: pageSuspendedMail(owner.email, deps.env.PUBLIC_ORIGIN, owner.username, reason), result: { suspended: true, reason } };
  });
}

/**
 * Restore the page: its last published version is live again; e-mailed to the owner. Answers the
 * reason it was suspended with, so that an undo suspends it again with the same one.
 */
export function restorePage(deps: AppDeps, admin: Admin, userId: string, note: string) {
  return changeSuspension(deps, userId, (tx, owner, at, writer) => {
    // A suspended account's page stays suspended until the account is restored (ADR 109).
    if (owner.suspendedAt) throw new ApiError("conflict", ADMIN_TEXTS.accountOfPageSuspended);
    if (!restorePageIn(tx, deps, writer, userId, owner.username)) throw new ApiError("conflict", ADMIN_TEXTS.notSuspended);
    record(tx, admin, at, "page.restore", userId, owner.username, note, { suspended: true, reason: owner.pageReason }, { suspended: false });
    return { mail: pageRestoredMail(owner.email, deps.env.PUBLIC_ORIGIN, owner.username), result: { suspended: false, previousReason: owner.pageReason } };
  });
}

export function accountSuspendedMail(to: string, origin: string, reason: string): MailMessage {
  return {
    to,
    subject: "Your Plinth account has been suspended",
    text: ["Your Plinth account has been suspended: you cannot sign in, and your page shows \"This page is unavailable\".", ...theReason(reason, origin)].join("\n"),
  };
}

export function accountRestoredMail(to: string, origin: string): MailMessage {
  return { to, subject: "Your Plinth account has been restored", text: `Your Plinth account has been restored: you can sign in again at ${origin}/login, and your page is back.` };
}

/** No sign-in, every session ended, the page suspended with the same reason (ADR 109). Never an admin's account (ADR 149). */
export async function suspendAccount(deps: AppDeps, admin: Admin, userId: string, reason: string) {
  if (userId === admin.id) throw new ApiError("forbidden", ADMIN_TEXTS.ownAccount);
  return changeSuspension(deps, userId, (tx, owner, at, writer) => {
    if (owner.role === "admin") throw new ApiError("forbidden", ADMIN_TEXTS.adminAccount);
    const changed = tx.update(users).set({ suspendedAt: at, suspensionReason: reason }).where(and(eq(users.id, userId), isNull(users.suspendedAt))).run().changes;
    if (changed === 0) throw new ApiError("conflict", ADMIN_TEXTS.accountAlreadySuspended);
    const ended = tx.delete(sessions).where(eq(sessions.userId, userId)).run().changes;
    suspendPageIn(tx, deps, writer, userId, owner.username, reason, at);
    record(tx, admin, at, "account.suspend", userId, owner.email, reason, { suspended: false, sessions: ended, pageSuspended: owner.pageSuspendedAt !== null }, { suspended: true, sessions: 0, pageSuspended: true, reason });
    return { mail: accountSuspendedMail(owner.email, deps.env.PUBLIC_ORIGIN, reason), result: { suspended: true, reason } };
  });
}

/** Sign-in allowed again and the page restored; answers the reason the account had, for an undo. */
export function restoreAccount(deps: AppDeps, admin: Admin, userId: string, note: string) {
  return changeSuspension(deps, userId, (tx, owner, at, writer) => {
    const changed = tx.update(users).set({ suspendedAt: null, suspensionReason: "" }).where(and(eq(users.id, userId), isNotNull(users.suspendedAt))).run().changes;
    if (changed === 0) throw new ApiError("conflict", ADMIN_TEXTS.accountNotSuspended);
    restorePageIn(tx, deps, writer, userId, owner.username);
    record(tx, admin, at, "account.restore", userId, owner.email, note, { suspended: true, pageSuspended: owner.pageSuspendedAt !== null }, { suspended: false, pageSuspended: false });
    return { mail: accountRestoredMail(owner.email, deps.env.PUBLIC_ORIGIN), result: { suspended: false, previousReason: owner.accountReason } };
  });
}

/** The owner's page suspension, for the dashboard's banner. */
export function suspensionOf(db: Db, userId: string): { since: string; reason: string } | null {
  const row = db.select({ at: userProfiles.pageSuspendedAt, reason: userProfiles.pageSuspensionReason }).from(userProfiles).where(eq(userProfiles.userId, userId)).get();
  return row?.at ? { since: row.at.toISOString(), reason: row.reason } : null;
}

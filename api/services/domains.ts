/**
 * Custom domains (ADR 240): an owner adds a domain, creates two DNS records (a TXT record
 * `_plinth.<domain>` holding the domain's token, and a CNAME to CUSTOM_DOMAIN_TARGET, or A/AAAA
 * records with its addresses for an apex), and the domain is verified by "Check now" or by the
 * background check, a `domain-check` job every few minutes for a day. A verified domain becomes the
 * page's address: a `page-address` job re-renders the page and rewrites the sitemap, as it does
 * when the domain is removed. DNS is read through an injected resolver (node:dns/promises by default).
 */
import { randomBytes } from "node:crypto";
import * as dns from "node:dns/promises";
import { and, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import {
  apexNote,
  claimKeyOf,
  DOMAIN_CHECK_EVERY_MS,
  DOMAIN_CHECK_PERIOD_MS,
  DOMAIN_MESSAGES,
  DOMAIN_STATE_TEXTS,
  domainShown,
  domainUrl,
  isUnder,
  parseDomain,
  servesHost,
  TXT_PREFIX,
  TXT_VALUE_PREFIX,
} from "#core/domains.ts";
import { LIMITS } from "#core/limits.ts";
import { hasFeature } from "#core/plans.ts";
import { durably, transaction, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { customDomains, jobs, userProfiles } from "#db/schema.ts";
import { verifiedDomainOf } from "#renderer/draft.ts";
import { rerenderPublishedPage } from "#renderer/rerender.ts";
import { throughTarget } from "#renderer/publish-target.ts";
import { writeSeoFiles } from "#renderer/seo-files.ts";
import type { AppDeps } from "../context.ts";
import { pagesOrigin, type Env } from "../env.server.ts";
import { ApiError, fieldError, plusRequired } from "../errors.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { log } from "../log.ts";
import { getProfile, planStateOf } from "./profile.ts";

/** The lookups a check makes: node:dns/promises has them all. A name without the record throws or answers []. */
export interface DomainResolver {
  resolveTxt(name: string): Promise<string[][]>;
  resolveCname(name: string): Promise<string[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
}

export const systemResolver: DomainResolver = dns;

type RecordState = "found" | "missing" | "wrong";

/** What one check found: each record's state, and what was seen (shown to the owner when it is wrong). */
export interface DomainCheck {
  txt: RecordState;
  routing: RecordState;
  seenTxt: string[];
  seenRouting: string[];
}

type DomainRow = typeof customDomains.$inferSelect;

export interface DomainJob {
  domainId: string;
}

export interface PageAddressJob {
  userId: string;
}

const resolverOf = (deps: AppDeps): DomainResolver => deps.resolver ?? systemResolver;
const norm = (name: string) => name.toLowerCase().replace(/\.$/, "");
const tokenValue = (row: Pick<DomainRow, "token">) => `${TXT_VALUE_PREFIX}${row.token}`;

/** Every answer of one lookup, or none when the name has no such record or the lookup failed. */
const answers = <T>(lookup: Promise<T[]>): Promise<T[]> => lookup.catch(() => []);

/**
 * The two records of `name` as DNS answers them now. Routing is right when the name's CNAME is the
 * target, or every address it resolves to (CNAMEs followed, or an apex's A/AAAA records, or a
 * provider's flattened ALIAS) is one of the target's.
 */
export async function lookUpRecords(resolver: DomainResolver, name: string, token: string, target: string): Promise<DomainCheck> {
  const [txt, cname, v4, v6, t4, t6] = await Promise.all([
    answers(resolver.resolveTxt(`${TXT_PREFIX}${name}`)),
    answers(resolver.resolveCname(name)),
    answers(resolver.resolve4(name)),
    answers(resolver.resolve6(name)),
    answers(resolver.resolve4(target)),
    answers(resolver.resolve6(target)),
  ]);
  const seenTxt = txt.map((chunks) => chunks.join("")).slice(0, 10);
  const txtState: RecordState = seenTxt.includes(`${TXT_VALUE_PREFIX}${token}`) ? "found" : seenTxt.length ? "wrong" : "missing";
  const cnames = cname.map(norm);
  const addresses = [...v4, ...v6].map((a) => a.toLowerCase());
  const targetAddresses = new Set([...t4, ...t6].map((a) => a.toLowerCase()));
  const routesHere = cnames.includes(target) || (addresses.length > 0 && addresses.every((a) => targetAddresses.has(a)));
  const seenRouting = (cnames.length ? cnames : addresses).slice(0, 10);
  const routing: RecordState = routesHere ? "found" : seenRouting.length ? "wrong" : "missing";
  return { txt: txtState, routing, seenTxt, seenRouting };
}

function targetOf(env: Env): string {
  if (!env.CUSTOM_DOMAIN_TARGET) throw new ApiError("not_found", DOMAIN_MESSAGES.notSetUp);
  return env.CUSTOM_DOMAIN_TARGET;
}

/** The operator's own host names: Plinth's origin, the pages' origin and the custom domains' target. */
function operatorHosts(env: Env): string[] {
  const hosts = [new URL(env.PUBLIC_ORIGIN).hostname];
  if (env.PUBLIC_PAGES_ORIGIN) hosts.push(new URL(env.PUBLIC_PAGES_ORIGIN).hostname);
  if (env.CUSTOM_DOMAIN_TARGET) hosts.push(env.CUSTOM_DOMAIN_TARGET);
  return hosts.map((h) => h.toLowerCase());
}

const verifiedByOther = (db: Db, claimKey: string, userId: string) =>
  db
    .select({ id: customDomains.id })
    .from(customDomains)
    .where(and(eq(customDomains.claimKey, claimKey), isNotNull(customDomains.verifiedAt), ne(customDomains.userId, userId)))
    .get() !== undefined;

type DomainState = "verified" | "pending" | "stopped" | "taken";

function stateOf(db: Db, row: DomainRow, now: Date): DomainState {
  if (row.verifiedAt) return "verified";
  if (verifiedByOther(db, row.claimKey, row.userId)) return "taken";
  return now.getTime() < row.checkUntil.getTime() ? "pending" : "stopped";
}

const RECORD_TEXT: Record<RecordState, string> = { found: DOMAIN_STATE_TEXTS.found, missing: DOMAIN_STATE_TEXTS.missing, wrong: DOMAIN_STATE_TEXTS.wrong };

/** A domain as the dashboard shows it: the name in Unicode, the records to create, and each one's state in words. */
export function domainView(db: Db, env: Env, row: DomainRow, now: Date) {
  const target = env.CUSTOM_DOMAIN_TARGET ?? "";
  const check = (row.lastCheck as DomainCheck | null) ?? null;
  const state = stateOf(db, row, now);
  const recordState = (key: "txt" | "routing"): RecordState => (row.verifiedAt ? "found" : (check?.[key] ?? "missing"));
  return {
    id: row.id,
    domain: domainShown(row.name),
    ascii: row.name,
    address: domainUrl(row.name),
    state,
    status: DOMAIN_STATE_TEXTS[state],
    records: [
      {
        purpose: "ownership" as const,
        type: "TXT" as const,
        name: `${TXT_PREFIX}${row.name}`,
        value: tokenValue(row),
        state: recordState("txt"),
        status: RECORD_TEXT[recordState("txt")],
        seen: row.verifiedAt ? [] : (check?.seenTxt ?? []),
      },
      {
        purpose: "routing" as const,
        type: "CNAME" as const,
        name: row.name,
        value: target,
        /** For an apex domain, which cannot have a CNAME: A/AAAA records with the target's addresses. */
        apexNote: apexNote(target),
        state: recordState("routing"),
        status: RECORD_TEXT[recordState("routing")],
        seen: row.verifiedAt ? [] : (check?.seenRouting ?? []),
      },
    ],
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    checkingUntil: row.verifiedAt ? null : row.checkUntil.toISOString(),
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
  };
}

export type DomainView = ReturnType<typeof domainView>;

export function ownDomain(db: Db, userId: string): DomainRow | null {
  return db.select().from(customDomains).where(eq(customDomains.userId, userId)).get() ?? null;
}

function ownedDomain(db: Db, userId: string, id: string): DomainRow {
  const row = db.select().from(customDomains).where(and(eq(customDomains.id, id), eq(customDomains.userId, userId))).get();
  if (!row) throw new ApiError("not_found", DOMAIN_MESSAGES.notFound);
  return row;
}

/** Queues the next background check unless one is already waiting (one chain per domain). */
function queueCheck(tx: Db, domainId: string, at: Date): void {
  const waiting = tx
    .select({ id: jobs.id })
    .from(jobs)
    // The job that runs this (claimed) is not waiting: it queues the one after it.
    .where(and(eq(jobs.kind, "domain-check"), eq(jobs.state, "pending"), isNull(jobs.claimedBy), sql`json_extract(${jobs.payload}, '$.domainId') = ${domainId}`))
    .get();
  if (!waiting) enqueueJob(tx, { kind: "domain-check", payload: { domainId } satisfies DomainJob }, at, new Date(at.getTime() + DOMAIN_CHECK_EVERY_MS));
}

/** POST /api/domains: the owner's one domain, refused when it is invalid, reserved, the operator's, taken or beyond the plan. */
export function addDomain(deps: AppDeps, userId: string, input: unknown): DomainView {
  const { db, env } = deps;
  const now = deps.now();
  targetOf(env);
  if (!hasFeature(planStateOf(getProfile(db, userId)), "custom_domain", now)) throw plusRequired("custom_domain");
  const parsed = parseDomain(input);
  if (!parsed.ok) throw fieldError("validation_failed", "domain", parsed.message);
  const name = parsed.ascii;
  // The operator's names and those under them, and the www / apex companion of one (ADR 240).
  if (operatorHosts(env).some((host) => isUnder(name, host) || claimKeyOf(host) === claimKeyOf(name))) {
    throw new ApiError("validation_failed", DOMAIN_MESSAGES.operator, { fields: { domain: DOMAIN_MESSAGES.operator } });
  }
  const claimKey = claimKeyOf(name);
  const row = durably(db, (tx) => {
    const held = tx.select({ n: sql<number>`count(*)` }).from(customDomains).where(eq(customDomains.userId, userId)).get()?.n ?? 0;
    if (held >= LIMITS.CUSTOM_DOMAINS_PER_ACCOUNT) throw new ApiError("conflict", DOMAIN_MESSAGES.onePerPage);
    if (verifiedByOther(tx, claimKey, userId)) throw new ApiError("conflict", DOMAIN_MESSAGES.taken, { fields: { domain: DOMAIN_MESSAGES.taken } });
    const inserted = tx
      .insert(customDomains)
      .values({ id: newId(), userId, name, claimKey, token: randomBytes(16).toString("hex"), createdAt: now, checkUntil: new Date(now.getTime() + DOMAIN_CHECK_PERIOD_MS) })
      .returning()
      .get();
    queueCheck(tx, inserted.id, now);
    return inserted;
  });
  return domainView(db, env, row, now);
}

/**
 * One check of `row`'s records, recorded; verifies the domain when both are right and nobody else
 * verified it first, and then queues the page's new address (a re-render and the sitemap).
 */
async function checkAndRecord(deps: AppDeps, row: DomainRow): Promise<DomainRow | null> {
  const target = targetOf(deps.env);
  const check = await lookUpRecords(resolverOf(deps), row.name, row.token, target);
  const now = deps.now();
  const updated = durably(deps.db, (tx) => {
    const current = tx.select().from(customDomains).where(eq(customDomains.id, row.id)).get();
    // Removed meanwhile, or its token changed (removed and added again): this check is of nothing.
    if (!current || current.token !== row.token) return null;
    if (current.verifiedAt) return current;
    const verify = check.txt === "found" && check.routing === "found" && !verifiedByOther(tx, current.claimKey, current.userId);
    const set = { lastCheck: check, lastCheckedAt: now, ...(verify ? { verifiedAt: now } : {}) };
    const next = tx.update(customDomains).set(set).where(eq(customDomains.id, row.id)).returning().get();
    if (verify) enqueueJob(tx, { kind: "page-address", payload: { userId: current.userId } satisfies PageAddressJob }, now);
    return next;
  });
  if (updated?.verifiedAt && !row.verifiedAt) log().info({ userId: row.userId }, "Custom domain verified");
  return updated;
}

/** POST /api/domains/:id/check ("Check now"): checks at once; a check that had stopped runs again for a day. */
export async function checkDomainNow(deps: AppDeps, userId: string, id: string): Promise<DomainView> {
  const row = ownedDomain(deps.db, userId, id);
  const checked = (await checkAndRecord(deps, row)) ?? ownedDomain(deps.db, userId, id);
  const now = deps.now();
  if (!checked.verifiedAt && now.getTime() >= checked.checkUntil.getTime()) {
    transaction(deps.db, (tx) => {
      tx.update(customDomains).set({ checkUntil: new Date(now.getTime() + DOMAIN_CHECK_PERIOD_MS) }).where(eq(customDomains.id, id)).run();
      queueCheck(tx, id, now);
    });
  }
  return domainView(deps.db, deps.env, ownedDomain(deps.db, userId, id), now);
}

/** DELETE /api/domains/:id: the page goes back to its Plinth address; another owner's id is not found. */
export function removeDomain(deps: AppDeps, userId: string, id: string): void {
  const now = deps.now();
  durably(deps.db, (tx) => {
    const row = ownedDomain(tx, userId, id);
    tx.delete(customDomains).where(eq(customDomains.id, row.id)).run();
    if (row.verifiedAt) enqueueJob(tx, { kind: "page-address", payload: { userId } satisfies PageAddressJob }, now);
  });
}

/** The `domain-check` job: one check, then the next in a few minutes while the day lasts. */
export async function runDomainCheck(deps: AppDeps, job: DomainJob): Promise<void> {
  const row = deps.db.select().from(customDomains).where(eq(customDomains.id, job.domainId)).get();
  if (!row || row.verifiedAt || !deps.env.CUSTOM_DOMAIN_TARGET) return;
  const checked = await checkAndRecord(deps, row);
  const now = deps.now();
  if (checked && !checked.verifiedAt && now.getTime() + DOMAIN_CHECK_EVERY_MS <= checked.checkUntil.getTime()) {
    transaction(deps.db, (tx) => queueCheck(tx, row.id, now));
  }
}

/** The `page-address` job: the page re-rendered at its address now, and the sitemap that lists it. */
export async function runPageAddress(deps: AppDeps, job: PageAddressJob): Promise<void> {
  const { env } = deps;
  const origin = pagesOrigin(env);
  await rerenderPublishedPage(deps.db, job.userId, { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, pagesOrigin: origin, now: deps.now() }, deps.target);
  // Written whether or not the domain is still there: a removal takes it out of the sitemap.
  await throughTarget(deps.target, (writer) => writer.putFiles(writeSeoFiles(deps.db, env.PUBLISHED_DIR, origin, deps.now())));
}

/**
 * After a re-render under a plan that may have changed (a boundary, a subscription's start or end):
 * an owner with a verified domain may have moved between it and the Plinth address, which the
 * sitemap lists (ADR 240). Nothing to do for anyone else.
 */
export async function sitemapAfterPlanChange(deps: AppDeps, userId: string): Promise<void> {
  const { env } = deps;
  if (!env.CUSTOM_DOMAIN_TARGET || verifiedDomainOf(deps.db, userId) === null) return;
  await throughTarget(deps.target, (writer) => writer.putFiles(writeSeoFiles(deps.db, env.PUBLISHED_DIR, pagesOrigin(env), deps.now())));
}

/** A verified domain (or its www / apex companion) and the page it serves, for the host router and Caddy's ask. */
export interface DomainHost {
  userId: string;
  username: string;
  /** The page's address on the domain: the name the owner added. */
  name: string;
  plan: Pick<typeof userProfiles.$inferSelect, "planType" | "subscriptionStatus" | "currentPeriodEndDate" | "trialEndsAt">;
  suspended: boolean;
}

/** Prepared once per database: the host router asks this of every request on a custom host. */
export function domainHostLookup(db: Db): (host: string) => DomainHost | null {
  const stmt = db
    .select({
      userId: customDomains.userId,
      name: customDomains.name,
      username: userProfiles.username,
      planType: userProfiles.planType,
      subscriptionStatus: userProfiles.subscriptionStatus,
      currentPeriodEndDate: userProfiles.currentPeriodEndDate,
      trialEndsAt: userProfiles.trialEndsAt,
      pageSuspendedAt: userProfiles.pageSuspendedAt,
    })
    .from(customDomains)
    .innerJoin(userProfiles, eq(userProfiles.userId, customDomains.userId))
    .where(and(eq(customDomains.claimKey, sql.placeholder("key")), isNotNull(customDomains.verifiedAt)))
    .prepare();
  return (host) => {
    const row = stmt.get({ key: claimKeyOf(host) });
    if (!row || !servesHost(row.name, host)) return null;
    const { userId, name, username, pageSuspendedAt, ...plan } = row;
    return { userId, name, username, plan, suspended: pageSuspendedAt !== null };
  };
}

/**
 * sitemap.xml (every published page) and robots.txt at the root of PUBLISHED_DIR, so any static host
 * serves them next to the pages. Each is rewritten atomically, with its compressed copies, and only
 * when its content changes: the sitemap carries no lastmod, so it changes when a page is published
 * for the first time.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, isNotNull } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { customDomains, userProfiles } from "#db/schema.ts";
import { planOf } from "./draft.ts";
import { pageAddress } from "./page-address.ts";
import { ENCODINGS, hasCompressedCopies, writeWithCompressedCopies } from "./precompress.ts";
import { escapeXml } from "./escape.ts";
import { publishedOwners } from "./published-pages.ts";

/** `addresses` holds the pages whose address is not origin/username: a verified custom domain (ADR 240). */
export function sitemapXml(origin: string, usernames: string[], addresses: ReadonlyMap<string, string> = new Map()): string {
  const urls = usernames.map((u) => `<url><loc>${escapeXml(addresses.get(u) ?? `${origin}/${encodeURIComponent(u)}`)}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /dashboard\nDisallow: /*/preview\nDisallow: /*?preview=\n\nSitemap: ${origin}/sitemap.xml\n`;
}

/**
 * With its compressed copies (ADR 054); a file written before copies were made gets them now. The
 * files written, copies included: none when the file was already so.
 */
function writeIfChanged(path: string, content: string): string[] {
  try {
    if (readFileSync(path, "utf8") === content && hasCompressedCopies(path)) return [];
  } catch {
    // Missing: write it.
  }
  writeWithCompressedCopies(path, content);
  return withCopiesOnDisk(path);
}

/** The file and those of its compressed copies that are on disk. */
const withCopiesOnDisk = (path: string) => [path, ...ENCODINGS.map((e) => path + e.suffix)].filter((f) => existsSync(f));

/** The two files and their compressed copies as they are on disk now. */
export function seoFilesOnDisk(publishedDir: string): string[] {
  return ["sitemap.xml", "robots.txt"].flatMap((name) => withCopiesOnDisk(join(publishedDir, name)));
}

/** Rewrites what changed of the two; returns the files written, for a bucket to put too (ADR 129). */
export function writeSeoFiles(db: Db, publishedDir: string, origin: string, now: Date = new Date()): string[] {
  const usernames = publishedOwners(db).map((o) => o.username);
  return [...writeIfChanged(join(publishedDir, "sitemap.xml"), sitemapXml(origin, usernames, domainAddresses(db, origin, now))), ...writeIfChanged(join(publishedDir, "robots.txt"), robotsTxt(origin))];
}

/** Each page served at its verified custom domain now (ADR 240): username to address. */
function domainAddresses(db: Db, origin: string, now: Date): Map<string, string> {
  const rows = db
    .select({ username: userProfiles.username, domain: customDomains.name, planType: userProfiles.planType, subscriptionStatus: userProfiles.subscriptionStatus, currentPeriodEndDate: userProfiles.currentPeriodEndDate, trialEndsAt: userProfiles.trialEndsAt })
    .from(customDomains)
    .innerJoin(userProfiles, eq(userProfiles.userId, customDomains.userId))
    .where(isNotNull(customDomains.verifiedAt))
    .all();
  const addresses = new Map<string, string>();
  for (const r of rows) {
    const address = pageAddress(r.username, origin, planOf(r), now, r.domain);
    if (address !== `${origin}/${encodeURIComponent(r.username)}`) addresses.set(r.username, address);
  }
  return addresses;
}

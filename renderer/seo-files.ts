/**
 * sitemap.xml (every published page) and robots.txt at the root of PUBLISHED_DIR, rewritten
 * atomically after each publish so any static host serves them next to the pages.
 */
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { writeFileAtomic } from "./atomic-write.ts";

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function sitemapXml(origin: string, pages: { username: string; lastPublishedAt: Date | null }[]): string {
  const urls = pages
    .map((p) => {
      const lastmod = p.lastPublishedAt ? `<lastmod>${p.lastPublishedAt.toISOString()}</lastmod>` : "";
      return `<url><loc>${xmlEscape(`${origin}/${encodeURIComponent(p.username)}`)}</loc>${lastmod}</url>`;
    })
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>\n`;
}

export function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /dashboard\nDisallow: /*/preview\n\nSitemap: ${origin}/sitemap.xml\n`;
}

export function writeSeoFiles(db: Db, publishedDir: string, origin: string): void {
  const pages = db
    .select({ username: userProfiles.username, lastPublishedAt: userProfiles.lastPublishedAt })
    .from(userProfiles)
    .where(eq(userProfiles.hasPublishedPage, true))
    .orderBy(asc(userProfiles.username))
    .all();
  writeFileAtomic(join(publishedDir, "sitemap.xml"), sitemapXml(origin, pages));
  writeFileAtomic(join(publishedDir, "robots.txt"), robotsTxt(origin));
}

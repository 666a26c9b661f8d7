/**
 * Preview: /{username}/preview and /{username}?preview=true render the owner's draft on the fly with
 * the page components (noindex, preview banner). With `version=N` as well (History, ADR 137:
 * /{username}/preview?version=N) they render that published version instead, as it was published:
 * under the plan it was published with, at the instant it was published, with a banner naming it.
 * Both give the page's address as it is now (its custom domain once verified, ADR 244).
 * Only the signed-in owner sees either; anyone else gets the site's 404 page, so a preview never
 * reveals that a draft or a version exists. Each owner's previews are limited like their writes
 * (ADR 093, ADR 148): a render costs the server, however the draft reads.
 */
import type { Context } from "hono";
import type { PagePlan, PageSnapshot } from "#core/model.ts";
import { eq } from "drizzle-orm";
import { userProfiles } from "#db/schema.ts";
import { HISTORY_TEXTS } from "#core/history.ts";
import { loadDraft } from "#renderer/draft.ts";
import { versionPreview } from "#renderer/publish.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { ownerPageAddress } from "#renderer/page-address.ts";
import { renderPage } from "#renderer/render.tsx";
import { isSecureOrigin } from "./auth/cookies.ts";
import { OWNER_WRITE_LIMITS, TOO_MANY_PREVIEWS } from "./auth/owner-write-limit.ts";
import { createRateLimiter, limitStoreFor } from "./services/rate-limit.ts";
import { readSessionCookie, validateSessionToken } from "./auth/session.ts";
import type { AppDeps } from "./context.ts";
import { pagesOrigin } from "./env.server.ts";
import { PAGE_HEADERS } from "./content-security.ts";

const PREVIEW_PATH = /^\/([A-Za-z0-9_-]{3,30})\/preview\/?$/;
const PAGE_PATH = /^\/([A-Za-z0-9_-]{3,30})\/?$/;

/** A version number as History links to it: digits only, no sign, no leading zero. */
const VERSION_PARAM = /^[1-9][0-9]{0,9}$/;

/** The username a request asks to preview, or null when it is not a preview request. */
export function previewTarget(path: string, query: (name: string) => string | undefined): string | null {
  const p = PREVIEW_PATH.exec(path);
  if (p?.[1]) return p[1].toLowerCase();
  const m = PAGE_PATH.exec(path);
  if (m?.[1] && query("preview") === "true") return m[1].toLowerCase();
  return null;
}

export function previewHandler({ db, env, now }: AppDeps, notFound: (c: Context, cacheControl: string) => Response | Promise<Response>) {
  const previews = createRateLimiter(OWNER_WRITE_LIMITS.previews.burst, OWNER_WRITE_LIMITS.previews.perSecond, { now, store: limitStoreFor(db), name: "previews" });
  return async (c: Context): Promise<Response | null> => {
    const username = previewTarget(c.req.path, (n) => c.req.query(n));
    if (!username) return null;
    const profile = db.select({ userId: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.username, username)).get();
    // Not a page (e.g. /pricing?preview=true): let the site answer as usual.
    if (!profile) return null;
    const token = readSessionCookie(c, isSecureOrigin(env.PUBLIC_ORIGIN));
    const at = now();
    const session = token ? validateSessionToken(db, token, at) : null;
    if (!session || profile.userId !== session.user.id) {
      return notFound(c, "no-store");
    }
    if (!previews.take(profile.userId)) {
      return new Response(TOO_MANY_PREVIEWS, { status: 429, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "1" } });
    }
    const asked = c.req.query("version");
    let shown: { snapshot: PageSnapshot; plan: PagePlan; now: Date; banner?: string } | null = null;
    if (asked === undefined) {
      const draft = loadDraft(db, profile.userId);
      shown = draft && { snapshot: draft.snapshot, plan: draft.plan, now: at };
    } else if (VERSION_PARAM.test(asked)) {
      const version = Number(asked);
      const v = versionPreview(db, profile.userId, version);
      shown = v && { snapshot: v.snapshot, plan: v.plan, now: v.publishedAt, banner: HISTORY_TEXTS.previewBanner(version, v.publishedAt) };
    }
    if (!shown) {
      return notFound(c, "no-store");
    }
    const page = renderPage({
      snapshot: shown.snapshot,
      plan: shown.plan,
      now: shown.now,
      origin: env.PUBLIC_ORIGIN,
      apiOrigin: env.PUBLIC_ORIGIN,
      pagesOrigin: pagesOrigin(env),
      // The address the page has now, in its share and QR code dialogs, for a past version too (ADR 244).
      pageUrl: ownerPageAddress(db, profile.userId, pagesOrigin(env), at) ?? undefined,
      mode: "preview",
      banner: shown.banner,
      assets: ensureSharedAssets(env.PUBLISHED_DIR),
    });
    return new Response(c.req.method === "HEAD" ? null : page.html, {
      status: 200,
      headers: {
        ...PAGE_HEADERS,
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Robots-Tag": "noindex, nofollow",
      },
    });
  };
}

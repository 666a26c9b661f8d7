/**
 * Preview: /{username}/preview and /{username}?preview=true render the owner's draft on the fly with
 * the page components (noindex, preview banner). Only the signed-in owner sees it; anyone else gets
 * the site's 404 page, so a preview never reveals that a draft exists. Each owner's previews are
 * limited like their writes (ADR 093, issue 35): a render costs the server, however the draft reads.
 */
import type { Context } from "hono";
import { eq } from "drizzle-orm";
import { userProfiles } from "#db/schema.ts";
import { loadDraft } from "#renderer/draft.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { renderPage } from "#renderer/render.tsx";
import { isSecureOrigin } from "./auth/cookies.ts";
import { OWNER_WRITE_LIMITS, TOO_MANY_PREVIEWS } from "./auth/owner-write-limit.ts";
import { createRateLimiter } from "./services/rate-limit.ts";
import { readSessionCookie, validateSessionToken } from "./auth/session.ts";
import type { AppDeps } from "./context.ts";
import { pagesOrigin } from "./env.server.ts";
import { PAGE_HEADERS } from "./content-security.ts";

const PREVIEW_PATH = /^\/([A-Za-z0-9_-]{3,30})\/preview\/?$/;
const PAGE_PATH = /^\/([A-Za-z0-9_-]{3,30})\/?$/;

/** The username a request asks to preview, or null when it is not a preview request. */
export function previewTarget(path: string, query: (name: string) => string | undefined): string | null {
  const p = PREVIEW_PATH.exec(path);
  if (p?.[1]) return p[1].toLowerCase();
  const m = PAGE_PATH.exec(path);
  if (m?.[1] && query("preview") === "true") return m[1].toLowerCase();
  return null;
}

export function previewHandler({ db, env, now }: AppDeps, notFound: (c: Context) => Response | Promise<Response>) {
  const previews = createRateLimiter(OWNER_WRITE_LIMITS.previews.burst, OWNER_WRITE_LIMITS.previews.perSecond, { now });
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
      const res = await notFound(c);
      res.headers.set("Cache-Control", "no-store");
      return res;
    }
    if (!previews.take(profile.userId)) {
      return new Response(TOO_MANY_PREVIEWS, { status: 429, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "1" } });
    }
    const draft = loadDraft(db, profile.userId);
    if (!draft) return notFound(c);
    const page = renderPage({
      snapshot: draft.snapshot,
      plan: draft.plan,
      now: at,
      origin: env.PUBLIC_ORIGIN,
      apiOrigin: env.PUBLIC_ORIGIN,
      pagesOrigin: pagesOrigin(env),
      mode: "preview",
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

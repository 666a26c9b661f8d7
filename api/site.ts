/**
 * Everything one server answers: /api/* (the Hono API), the built site (marketing, auth and the
 * dashboard SPA), the published pages at /{username} straight from PUBLISHED_DIR, and their files.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { proxy } from "hono/proxy";
import { matchedRoutes } from "hono/route";
import { isReservedUsername } from "#core/reserved.ts";
import { userProfiles } from "#db/schema.ts";
import { IMMUTABLE, REVALIDATE } from "#renderer/content-types.ts";
import { SUSPENDED_STATUS, UNAVAILABLE_HTML } from "#renderer/suspension.ts";
import { createApi } from "./app.ts";
import { isConsoleRequest } from "./auth/admin.ts";
import type { AppDeps } from "./context.ts";
import { FRAME_OPTIONS, htmlSecurityHeaders, PAGE_HEADERS, sitePolicyOf } from "./content-security.ts";
import { fileInside, fileResponse, type ServeOptions } from "./static-files.ts";
import { previewHandler } from "./preview.ts";
import { signedInHint } from "./signed-in-hint.ts";
import { captureReferral } from "./services/affiliate-referral.ts";
import { logContext } from "./log.ts";
import { metricsHandler } from "./metrics-endpoint.ts";
import { customHosts } from "./custom-host.ts";

const USERNAME_PATH = /^\/([A-Za-z0-9_-]{3,30})\/?$/;
/** A published page's own files (QR code, contact cards); never a dot file such as an unfinished swap. */
const PAGE_FILE_PATH = /^\/[a-z0-9_-]{3,30}\/(qr-[0-9a-z]+\.svg|contact-[0-9a-z]+\.vcf)$/;

const SITE_HEADERS = {
  "Referrer-Policy": "strict-origin-when-cross-origin",
  ...FRAME_OPTIONS,
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

/** A file of the built site; an HTML page also gets its Content-Security-Policy (ADR 055). */
function siteFile(file: { path: string }, opts: ServeOptions): Response | Promise<Response> {
  const headers = file.path.endsWith(".html") ? { ...SITE_HEADERS, "Content-Security-Policy": sitePolicyOf(file.path) } : SITE_HEADERS;
  return fileResponse(file, { ...opts, headers });
}

export function createServerApp(deps: AppDeps) {
  const { env } = deps;
  const app = new Hono();
  const devSite = env.ASTRO_DEV_URL;
  // The access line and the request metrics name the route pattern that answered and the signed-in
  // user (api/http-server.ts), never the raw path.
  app.use("*", async (c, next) => {
    await next();
    const ctx = logContext();
    if (!ctx) return;
    ctx.route = matchedRoutes(c)[c.req.routeIndex]?.path ?? "unmatched";
    const user = (c.get as (key: string) => { id: string } | null | undefined)("user");
    if (user) ctx.userId = user.id;
  });
  // A verified custom domain's page, its companion's redirect, and 404 for any host not ours (ADR 241).
  // The answers it names are made below; it calls them only once a request arrives.
  const byHost = customHosts(deps, { notFound: (c) => notFound(c), unavailable: (c) => unavailable(c) });
  if (byHost) app.use("*", byHost);
  // Prometheus metrics (ADR 191): only to the bearer token; 404 without one.
  app.get("/metrics", metricsHandler(deps));
  // Every HTML answer has a policy and may not be framed; in development Astro's dev server injects
  // scripts of its own, so its pages are passed on as they are.
  if (!devSite) app.use("*", htmlSecurityHeaders);
  // A referral link's visit is remembered for the signup that may follow (ADR 084).
  app.use("*", captureReferral(env.PUBLIC_ORIGIN));
  const api = createApi(deps);
  app.route("/api", api);

  /**
   * The site's 404 page with status 404, cached as `cacheControl` says. The caller names its caching
   * here rather than changing the answer's headers afterwards: a header set on a made answer can be
   * lost when a later middleware adds a cookie (under the server's Response class).
   */
  const notFound = async (c: Context, cacheControl: string = REVALIDATE) => {
    if (devSite) {
      const res = await proxy(`${devSite}/404`, { headers: { accept: "text/html" } });
      return new Response(res.body, { status: 404, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": cacheControl } });
    }
    const file = fileInside(env.SITE_DIR, "/404.html");
    if (file) return siteFile(file, { cacheControl, status: 404, method: c.req.method, acceptEncoding: c.req.header("accept-encoding") });
    return c.html("<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>", 404, { "Cache-Control": cacheControl });
  };

  const preview = previewHandler(deps, notFound);

  // A suspended page (ADR 108): its URL and its files answer the unavailable page and 410.
  const suspendedByName = deps.db
    .select({ id: userProfiles.userId })
    .from(userProfiles)
    .where(and(eq(userProfiles.username, sql.placeholder("name")), isNotNull(userProfiles.pageSuspendedAt)))
    .prepare();
  const unavailable = (c: Context) =>
    new Response(c.req.method === "HEAD" ? null : UNAVAILABLE_HTML, {
      status: SUSPENDED_STATUS,
      headers: { ...PAGE_HEADERS, "Content-Type": "text/html; charset=utf-8", "Cache-Control": REVALIDATE },
    });
  const isSuspended = (name: string) => suspendedByName.get({ name: name.toLowerCase() }) !== undefined;

  // Site pages (not the published pages, which stay cacheable by anyone) carry the signed-in hint.
  const isPublishedPage = (c: Context) => {
    const name = USERNAME_PATH.exec(c.req.path)?.[1];
    return name !== undefined && !isReservedUsername(name) && c.res.status !== 404;
  };
  const hint = signedInHint(deps, (c) => !isPublishedPage(c));
  app.use("*", async (c, next) => (c.req.path === "/api" || c.req.path.startsWith("/api/") ? next() : hint(c, next)));

  const pagesOrigin = env.PUBLISH_TARGET === "s3" ? env.PUBLIC_PAGES_ORIGIN : undefined;
  app.on(["GET", "HEAD"], "*", async (c, next) => {
    const path = c.req.path;
    // What every file answer takes from the request: HEAD, a revalidation, the encodings (ADR 054).
    const req = { method: c.req.method, ifNoneMatch: c.req.header("if-none-match"), acceptEncoding: c.req.header("accept-encoding") };

    // The operator's console: its page only for an admin with two-factor on; for anyone else the
    // site's 404, exactly as a path that does not exist (ADR 105).
    if (path === "/admin" || path.startsWith("/admin/")) {
      if (!isConsoleRequest(deps, c)) return notFound(c);
      if (devSite) return proxy(`${devSite}/admin/`, { headers: c.req.header() });
      const shell = fileInside(env.SITE_DIR, "/admin/index.html");
      return shell ? siteFile(shell, { cacheControl: "no-store", ...req }) : notFound(c);
    }

    // 0. The owner's draft preview, and the published pages' sitemap.xml and robots.txt.
    const previewed = await preview(c);
    if (previewed) return previewed;
    if (path === "/sitemap.xml" || path === "/robots.txt") {
      const file = fileInside(env.PUBLISHED_DIR, path);
      if (file) return fileResponse(file, { cacheControl: REVALIDATE, ...req });
    }

    // 1. Files of the published pages: content-hashed shared assets and per-page files (QR code, .vcf).
    if (path.startsWith("/_p/") || path.startsWith("/media/")) {
      const file = fileInside(env.PUBLISHED_DIR, path);
      if (file) return fileResponse(file, { cacheControl: IMMUTABLE, ...req });
      return notFound(c);
    }
    if (PAGE_FILE_PATH.test(path)) {
      if (isSuspended(path.split("/")[1]!)) return unavailable(c);
      if (pagesOrigin) return c.redirect(`${pagesOrigin}${path}`, 302);
      const file = fileInside(env.PUBLISHED_DIR, path);
      // Contact cards and the QR code are named by their content.
      if (file) return fileResponse(file, { cacheControl: IMMUTABLE, ...req });
    }

    // 2. The site: in development proxied to Astro's dev server, otherwise the built files.
    if (devSite) {
      if (!USERNAME_PATH.test(path) || isReservedUsername(path.replace(/\//g, ""))) {
        const target = path.startsWith("/dashboard") ? "/dashboard/" : path;
        const res = await proxy(`${devSite}${target}${new URL(c.req.url).search}`, { headers: c.req.header() });
        if (res.status !== 404) return res;
      }
    } else {
      const exact = fileInside(env.SITE_DIR, path);
      if (exact && !path.endsWith(".html")) {
        const hashed = path.startsWith("/_astro/");
        return siteFile(exact, { cacheControl: hashed ? IMMUTABLE : REVALIDATE, ...req });
      }
      const page = fileInside(env.SITE_DIR, path.endsWith("/") ? `${path}index.html` : `${path}/index.html`);
      if (page) return siteFile(page, { cacheControl: REVALIDATE, ...req });
      if (path === "/dashboard" || path.startsWith("/dashboard/")) {
        const shell = fileInside(env.SITE_DIR, "/dashboard/index.html");
        if (shell) return siteFile(shell, { cacheControl: REVALIDATE, ...req });
      }
    }

    // 3. A published page at /{username}.
    const match = USERNAME_PATH.exec(path);
    if (match?.[1]) {
      const name = match[1];
      if (isReservedUsername(name)) return notFound(c);
      const lower = name.toLowerCase();
      if (lower !== name) return c.redirect(`/${lower}${new URL(c.req.url).search}`, 301);
      if (isSuspended(lower)) return unavailable(c);
      // Pages in a bucket are served by its CDN; old links to this server still reach them (ADR 129).
      if (pagesOrigin) return c.redirect(`${pagesOrigin}/${lower}${new URL(c.req.url).search}`, 302);
      const file = fileInside(env.PUBLISHED_DIR, `/${lower}/index.html`);
      // The page's own policy is in its meta tag; framing is forbidden here, where a header can say it.
      if (file) return fileResponse(file, { cacheControl: REVALIDATE, headers: PAGE_HEADERS, ...req });
    }
    return next();
  });

  app.all("*", (c) => notFound(c));
  return app;
}

/** Whether the site has been built (the server can start without it, but then serves only the API). */
export function siteIsBuilt(siteDir: string): boolean {
  return existsSync(join(siteDir, "index.html"));
}

/**
 * "Continue with Google" (spec section 7: provider sign-in returning to /auth/callback). The start
 * route sends the browser to the provider with state, nonce and a PKCE challenge kept in a
 * short-lived HttpOnly cookie; the /auth/callback page posts the provider's answer back here.
 *
 * A returning Google user is signed in (two-factor still applies); an existing account with the
 * same verified address is linked; anyone else starts a signup with the address filled in.
 */
import { eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { AUTH_LIMITS, AUTH_TEXT, safeNextPath } from "#core/schemas/auth.ts";
import { UsernameSchema } from "#core/schemas/username.ts";
import { users } from "#db/schema.ts";
import { isSecureOrigin } from "../../auth/middleware.ts";
import type { AppDeps, AppEnv } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { authorizationUrl, finishAuthorization, oidcSettings, type ProviderIdentity } from "../../services/oidc.ts";
import { createProviderAttempt } from "../../services/signup.ts";
import { jsonBody, query } from "../../validate.ts";
import { finishFirstFactor, setSignupCookie, take, type AuthLimiters } from "./shared.ts";

const FLOW_COOKIE = "plinth_oidc";
const COOKIE_PATH = "/api/auth";

const StartQuerySchema = z.object({
  next: z.string().max(512).optional(),
  remember: z.enum(["0", "1"]).default("1"),
  username: z.string().max(100).optional(),
});

const FlowSchema = z.object({
  state: z.string().min(1).max(200),
  nonce: z.string().min(1).max(200),
  verifier: z.string().min(1).max(200),
  next: z.string().max(512),
  remember: z.boolean(),
  username: z.string().max(30).nullable(),
});
type Flow = z.infer<typeof FlowSchema>;

function readFlow(c: Context): Flow | null {
  const raw = getCookie(c, FLOW_COOKIE);
  if (!raw || raw.length > 2048) return null;
  try {
    const parsed = FlowSchema.safeParse(JSON.parse(Buffer.from(raw, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function googleRoutes(deps: AppDeps, limiters: AuthLimiters) {
  const { db, env, now } = deps;
  const secure = isSecureOrigin(env.PUBLIC_ORIGIN);

  const failed = (message: string = AUTH_TEXT.providerFailed) => new ApiError("bad_request", message);

  /** Who this Google identity is here: an account (found or linked), or a signup to begin. */
  function resolveIdentity(identity: ProviderIdentity) {
    const bySub = db.select().from(users).where(eq(users.googleSub, identity.sub)).get();
    if (bySub) return { userId: bySub.id };
    if (!identity.email) throw failed();
    if (!identity.emailVerified) throw failed(AUTH_TEXT.providerEmailUnverified);
    const byEmail = db.select().from(users).where(eq(users.email, identity.email)).get();
    if (byEmail) {
      if (byEmail.googleSub) throw failed();
      // The provider proved the address, so it may sign in to the account that has it (ADR 043).
      db.update(users).set({ googleSub: identity.sub, emailVerified: true, updatedAt: now() }).where(eq(users.id, byEmail.id)).run();
      return { userId: byEmail.id };
    }
    return { signupEmail: identity.email };
  }

  return (
    new Hono<AppEnv>()
      // GET /api/auth/google?next=&remember=&username= - off to the provider (404 when Google sign-in is not configured)
      .get("/google", query(StartQuerySchema), async (c) => {
        const settings = oidcSettings(env);
        if (!settings) throw new ApiError("not_found", "Google sign-in is not configured");
        take(c, limiters.work, env.TRUST_PROXY);
        const q = c.req.valid("query");
        const username = q.username && UsernameSchema.safeParse(q.username).success ? q.username.trim().toLowerCase() : null;
        let started;
        try {
          started = await authorizationUrl(settings);
        } catch (err) {
          console.error("Google sign-in could not start", err);
          return c.redirect(`/auth/login?error=provider`, 302);
        }
        const flow: Flow = { ...started.checks, next: safeNextPath(q.next), remember: q.remember === "1", username };
        setCookie(c, FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString("base64url"), {
          httpOnly: true,
          sameSite: "Lax",
          path: COOKIE_PATH,
          secure,
          maxAge: AUTH_LIMITS.OIDC_FLOW_TTL_MS / 1000,
        });
        return c.redirect(started.url.href, 302);
      })

      // POST /api/auth/google/callback - the provider's answer (the callback page's query string)
      .post("/google/callback", jsonBody(z.object({ query: z.string().max(4096) })), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const settings = oidcSettings(env);
        if (!settings) throw new ApiError("not_found", "Google sign-in is not configured");
        const flow = readFlow(c);
        // The flow's checks are good for one answer only.
        deleteCookie(c, FLOW_COOKIE, { path: COOKIE_PATH, secure, httpOnly: true, sameSite: "Lax" });
        if (!flow) throw failed();
        const search = c.req.valid("json").query.replace(/^\?/, "");
        if (new URLSearchParams(search).has("error")) throw failed();
        let identity: ProviderIdentity;
        try {
          identity = await finishAuthorization(settings, search, flow);
        } catch {
          // A wrong state, nonce or verifier, a replayed code, or the provider refusing: all the same to the user.
          throw failed();
        }
        const resolved = resolveIdentity(identity);
        if ("userId" in resolved && resolved.userId) {
          const outcome = finishFirstFactor(c, deps, resolved.userId, flow.remember);
          return c.json({ ...outcome, redirect: flow.next });
        }
        const { attempt, token } = createProviderAttempt(db, { email: resolved.signupEmail!, googleSub: identity.sub, username: flow.username }, now());
        setSignupCookie(c, env, token);
        return c.json({ status: "signup" as const, redirect: "/auth/signup", email: attempt.email, username: attempt.username });
      })
  );
}

/**
 * "Continue with Google" (docs/product.md section 7: provider sign-in returning to /auth/callback). The start
 * route sends the browser to the provider with state, nonce and a PKCE challenge kept in a
 * short-lived HttpOnly cookie; the /auth/callback page posts the provider's answer back here.
 *
 * A returning Google user is signed in (two-factor still applies); an existing account with the
 * same verified address is linked, and its owner told by e-mail; anyone else starts a signup with the
 * address filled in. The flow cookie is signed with a key of the server's (ADR 048), and the page to
 * return to is checked again when the provider sends the browser back.
 */
import { eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { z } from "zod";
import { AUTH_LIMITS, AUTH_TEXT, safeNextPath } from "#core/schemas/auth.ts";
import { UsernameSchema } from "#core/schemas/username.ts";
import { users } from "#db/schema.ts";
import { clearCookie, isSecureOrigin, readSignedCookie, writeSignedCookie } from "../../auth/cookies.ts";
import { serverSecret } from "../../auth/server-secret.ts";
import { assertNotSuspended } from "../../auth/sign-in.ts";
import type { AppDeps, AppEnv } from "../../context.ts";
import { ApiError } from "../../errors.ts";
import { providerLinkedMail } from "../../services/auth-mail.ts";
import { authorizationUrl, finishAuthorization, oidcSettings, type ProviderIdentity } from "../../services/oidc.ts";
import { createProviderAttempt } from "../../services/signup.ts";
import { jsonBody, query } from "../../validate.ts";
import { finishFirstFactor, setSignupCookie, take, type AuthLimiters } from "./shared.ts";
import { log } from "../../log.ts";

const FLOW_COOKIE = "plinth_oidc";

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

/** The flow this browser started, or null when the cookie is missing, expired or was changed. */
async function readFlow(c: Context, secret: string, secure: boolean): Promise<Flow | null> {
  const raw = await readSignedCookie(c, FLOW_COOKIE, secret, secure);
  if (!raw || raw.length > 2048) return null;
  try {
    const parsed = FlowSchema.safeParse(JSON.parse(Buffer.from(raw, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function googleRoutes(deps: AppDeps, limiters: AuthLimiters) {
  const { db, env, mailer, now } = deps;
  const secure = isSecureOrigin(env.PUBLIC_ORIGIN);
  const flowSecret = () => serverSecret(db, "oidc-flow-cookie");

  const failed = (message: string = AUTH_TEXT.providerFailed) => new ApiError("bad_request", message);

  /** Who this Google identity is here: an account (found, or linked just now), or a signup to begin. */
  function resolveIdentity(identity: ProviderIdentity): { userId: string; linkedEmail?: string } | { signupEmail: string } {
    const bySub = db.select().from(users).where(eq(users.googleSub, identity.sub)).get();
    if (bySub) return { userId: bySub.id };
    if (!identity.email) throw failed();
    if (!identity.emailVerified) throw failed(AUTH_TEXT.providerEmailUnverified);
    const byEmail = db.select().from(users).where(eq(users.email, identity.email)).get();
    if (byEmail) {
      if (byEmail.googleSub) throw failed();
      // A suspended account gains no new way in: refused before anything is linked (ADR 109).
      assertNotSuspended(db, byEmail.id);
      // The provider proved the address, so it may sign in to the account that has it (ADR 043).
      db.update(users).set({ googleSub: identity.sub, emailVerified: true, updatedAt: now() }).where(eq(users.id, byEmail.id)).run();
      return { userId: byEmail.id, linkedEmail: byEmail.email };
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
          log().error({ err }, "Google sign-in could not start");
          return c.redirect(`/auth/login?error=provider`, 302);
        }
        const flow: Flow = { ...started.checks, next: safeNextPath(q.next), remember: q.remember === "1", username };
        await writeSignedCookie(c, FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString("base64url"), flowSecret(), secure, {
          maxAge: AUTH_LIMITS.OIDC_FLOW_TTL_MS / 1000,
        });
        return c.redirect(started.url.href, 302);
      })

      // POST /api/auth/google/callback - the provider's answer (the callback page's query string)
      .post("/google/callback", jsonBody(z.object({ query: z.string().max(4096) })), async (c) => {
        take(c, limiters.work, env.TRUST_PROXY);
        const settings = oidcSettings(env);
        if (!settings) throw new ApiError("not_found", "Google sign-in is not configured");
        const flow = await readFlow(c, flowSecret(), secure);
        // The flow's checks are good for one answer only.
        clearCookie(c, FLOW_COOKIE, secure);
        const search = c.req.valid("json").query.replace(/^\?/, "");
        // The provider said no (the person cancelled, say): docs/product.md's message, whatever the cookie.
        if (new URLSearchParams(search).has("error")) throw failed();
        if (!flow) throw failed(AUTH_TEXT.providerFlowInvalid);
        let identity: ProviderIdentity;
        try {
          identity = await finishAuthorization(settings, search, flow);
        } catch {
          // A wrong state, nonce or verifier, a replayed code, or the provider refusing: all the same to the user.
          throw failed();
        }
        const resolved = resolveIdentity(identity);
        if ("userId" in resolved) {
          if (resolved.linkedEmail) {
            await mailer
              .send(providerLinkedMail(resolved.linkedEmail, env.PUBLIC_ORIGIN, now(), env.CONTACT_TO, { name: env.OIDC_PROVIDER_NAME, label: settings.label }))
              .catch((err) => log().error({ err }, "Sending the sign-in link notice failed"));
          }
          const outcome = finishFirstFactor(c, deps, resolved.userId, flow.remember);
          // Checked again where it is used: only a dashboard path of this site leaves here, whatever the cookie held.
          return c.json({ ...outcome, redirect: safeNextPath(flow.next) });
        }
        const { attempt, token } = createProviderAttempt(db, { email: resolved.signupEmail, googleSub: identity.sub, username: flow.username }, now());
        setSignupCookie(c, env, token);
        return c.json({ status: "signup" as const, redirect: "/auth/signup", email: attempt.email, username: attempt.username });
      })
  );
}

/**
 * A standards-certified OpenID Connect provider for tests: oidc-provider (the npm package, OpenID
 * Certified) in its default configuration, where the ID token carries only the subject and the
 * e-mail comes from UserInfo. Who is "signing in" is set by the test (`signInAs`), or for a browser
 * by a cookie on the provider's host (the same one tests/support/oidc-mock.ts reads); the login and
 * consent interactions are then finished at once, as a person who is signed in and consents would.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { MOCK_IDENTITY_COOKIE } from "./oidc-mock.ts";

export interface OidcProviderServer {
  issuer: string;
  /** The identity the next sign-in at the provider is made as (sub, email, email_verified). */
  signInAs(who: Record<string, unknown>): void;
  stop(): Promise<void>;
}

function identityCookie(req: IncomingMessage): Record<string, unknown> | null {
  const raw = (req.headers.cookie ?? "")
    .split(";")
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${MOCK_IDENTITY_COOKIE}=`));
  if (!raw) return null;
  try {
    return JSON.parse(decodeURIComponent(raw.slice(MOCK_IDENTITY_COOKIE.length + 1))) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export async function startOidcProvider(opts: { clientId: string; redirectUri: string; port?: number; host?: string }): Promise<OidcProviderServer> {
  const host = opts.host ?? "127.0.0.1";
  const accounts = new Map<string, Record<string, unknown>>();
  let next: Record<string, unknown> | null = null;
  let handle: ((req: IncomingMessage, res: import("node:http").ServerResponse) => void) | undefined;
  let provider: Provider | undefined;

  const server: Server = createServer((req, res) => {
    const interaction = /^\/interaction\/[^/?]+/.exec(req.url ?? "");
    if (!interaction) return handle!(req, res);
    void (async () => {
      const details = await provider!.interactionDetails(req, res);
      const who = identityCookie(req) ?? next;
      if (!who || typeof who.sub !== "string") throw new Error("nobody is signing in at the provider");
      accounts.set(who.sub, who);
      const grant = new provider!.Grant({ accountId: who.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider!.interactionFinished(req, res, { login: { accountId: who.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((done) => server.listen(opts.port ?? 0, host, done));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;

  provider = new Provider(issuer, {
    clients: [{ client_id: opts.clientId, redirect_uris: [opts.redirectUri], response_types: ["code"], grant_types: ["authorization_code"], token_endpoint_auth_method: "none" }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: ["plinth-tests-only"] },
    features: { devInteractions: { enabled: false } },
    findAccount: (_ctx, sub) => {
      const who = accounts.get(sub);
      return who ? { accountId: sub, claims: () => ({ ...who, sub }) } : undefined;
    },
  });
  handle = provider.callback();

  return {
    issuer,
    signInAs(who) {
      next = who;
    },
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}

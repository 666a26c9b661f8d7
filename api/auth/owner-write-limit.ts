/**
 * Per-owner budgets for changing the page (ADR 093): every write to the draft (links, lists, social
 * links, profile, appearance, pictures) and every publish, discard and rollback counts against the
 * signed-in owner, wherever the requests come from. Generous for a person typing, toggling and
 * dragging; a script looping edits and publishes is held to a trickle. A refused request is turned
 * away before its route runs, so it changes nothing.
 */
import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv } from "../context.ts";
import { ApiError } from "../errors.ts";
import { createRateLimiter, limitStoreFor } from "../services/rate-limit.ts";

export const OWNER_WRITE_LIMITS = {
  /** Any change to the draft or the page: 120 at once, then two a second. */
  writes: { burst: 120, perSecond: 2 },
  /** Publish, discard and rollback (each renders or restores the whole page): 30 at once, then one every 10 seconds. */
  publishes: { burst: 30, perSecond: 1 / 10 },
  /** Previews of the draft (each renders the whole page, api/preview.ts): 30 at once, then one a second. */
  previews: { burst: 30, perSecond: 1 },
} as const;

export const TOO_MANY_CHANGES = "Too many changes. Please wait a moment and try again.";
export const TOO_MANY_PREVIEWS = "Too many previews. Please wait a moment and try again.";

const OWNER_RESOURCES = ["/api/links", "/api/link-lists", "/api/social-links", "/api/profile", "/api/publish", "/api/domains"];
const PUBLISHING = "/api/publish";
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

export function ownerWriteLimit({ db, now }: AppDeps): MiddlewareHandler<AppEnv> {
  const writes = createRateLimiter(OWNER_WRITE_LIMITS.writes.burst, OWNER_WRITE_LIMITS.writes.perSecond, { now, store: limitStoreFor(db), name: "owner-writes" });
  const publishes = createRateLimiter(OWNER_WRITE_LIMITS.publishes.burst, OWNER_WRITE_LIMITS.publishes.perSecond, { now, store: limitStoreFor(db), name: "owner-publishes" });
  return async (c, next) => {
    const user = c.get("user");
    const path = c.req.path;
    if (user && !READS.has(c.req.method) && OWNER_RESOURCES.some((p) => under(path, p))) {
      const allowed = under(path, PUBLISHING) ? publishes.take(user.id) && writes.take(user.id) : writes.take(user.id);
      if (!allowed) throw new ApiError("rate_limited", TOO_MANY_CHANGES);
    }
    await next();
  };
}

/**
 * An in-memory token bucket per key (a client address, an owner): `capacity` requests at once,
 * refilled at `perSecond`. At most `maxKeys` buckets are kept; past that the least recently used one
 * goes (ADR 091), so a client rotating through fresh addresses pushes out only idle buckets, never
 * the one of a client still being limited.
 */
export interface RateLimiter {
  take(key: string): boolean;
}

export interface RateLimiterOptions {
  /** The clock: AppDeps.now, so tests drive it. */
  now?: () => Date;
  maxKeys?: number;
}

export function createRateLimiter(capacity: number, perSecond: number, { now = () => new Date(), maxKeys = 50_000 }: RateLimiterOptions = {}): RateLimiter {
  // A Map iterates in insertion order; deleting and setting a key on every use keeps the least
  // recently used one first.
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const at = now().getTime();
      let b = buckets.get(key);
      if (b) {
        buckets.delete(key);
        b.tokens = Math.min(capacity, b.tokens + (Math.max(0, at - b.at) / 1000) * perSecond);
        b.at = at;
      } else {
        if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value!);
        b = { tokens: capacity, at };
      }
      buckets.set(key, b);
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
  };
}

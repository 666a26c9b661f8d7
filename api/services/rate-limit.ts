/** An in-memory token bucket per key (client address): `capacity` requests, refilled at `perSecond`. */
export interface RateLimiter {
  take(key: string, now?: number): boolean;
}

export function createRateLimiter(capacity: number, perSecond: number, maxKeys = 50_000): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key, now = Date.now()) {
      let b = buckets.get(key);
      if (!b) {
        if (buckets.size >= maxKeys) buckets.clear();
        b = { tokens: capacity, at: now };
        buckets.set(key, b);
      }
      b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * perSecond);
      b.at = now;
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
  };
}

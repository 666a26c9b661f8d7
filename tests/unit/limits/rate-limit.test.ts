/**
 * The token bucket (ADR 091, kept in SQLite by ADR 180): a bucket refills with the injected clock,
 * limiters on one store share their buckets, and a bucket is forgotten only once it is full again.
 * takeSoon answers the takes of one turn of the event loop together, with the same answers.
 */
import { describe, expect, it } from "vitest";
import { createRateLimiter, openLimitStore } from "#api/services/rate-limit.ts";

function clock(start = Date.UTC(2030, 0, 1)) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe("createRateLimiter", () => {
  it("allows a burst, then refills at its rate on the injected clock", () => {
    const c = clock();
    const limiter = createRateLimiter(3, 0.5, { now: c.now });
    expect([1, 2, 3, 4].map(() => limiter.take("a"))).toEqual([true, true, true, false]);
    c.advance(1_999);
    expect(limiter.take("a")).toBe(false);
    c.advance(1);
    expect(limiter.take("a")).toBe(true);
    expect(limiter.take("b")).toBe(true);
  });

  it("keeps an exhausted key limited while an attacker rotates through more than 50,000 addresses", () => {
    const c = clock();
    const limiter = createRateLimiter(5, 1 / 60, { now: c.now });
    while (limiter.take("198.51.100.1"));
    for (let i = 0; i < 50_001; i++) {
      limiter.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      // The limited client keeps trying between the attacker's requests.
      if (i % 1_000 === 0) expect(limiter.take("198.51.100.1")).toBe(false);
    }
    expect(limiter.take("198.51.100.1")).toBe(false);
  });

  it("forgets a bucket once it has had time to fill up again, and only then", () => {
    const c = clock();
    const store = openLimitStore(":memory:");
    const limiter = createRateLimiter(2, 1 / 60, { now: c.now, store, name: "test" });
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([true, true, false]);
    limiter.take("b");
    const rows = () => (store.prepare("SELECT key FROM buckets ORDER BY key").pluck().all() as string[]);
    expect(rows()).toEqual(["a", "b"]);
    c.advance(119_999);
    limiter.take("c");
    expect(rows()).toEqual(["a", "b", "c"]);
    c.advance(60_001);
    limiter.take("c");
    expect(rows()).toEqual(["c"]);
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([true, true, false]);
  });

  it("two limiters on one store share each key's bucket, as two server processes do; limits of other names are apart", () => {
    const c = clock();
    const store = openLimitStore(":memory:");
    const one = createRateLimiter(3, 0.5, { now: c.now, store, name: "visitor" });
    const two = createRateLimiter(3, 0.5, { now: c.now, store, name: "visitor" });
    const other = createRateLimiter(3, 0.5, { now: c.now, store, name: "contact" });
    expect([one.take("a"), two.take("a"), one.take("a"), two.take("a")]).toEqual([true, true, true, false]);
    expect(other.take("a")).toBe(true);
  });

  it("gives nothing back when the clock goes backwards", () => {
    const c = clock();
    const limiter = createRateLimiter(1, 1, { now: c.now });
    expect(limiter.take("a")).toBe(true);
    c.advance(-60_000);
    expect(limiter.take("a")).toBe(false);
  });

  it("takeSoon answers the takes of one turn together, in order, from the same buckets as take", async () => {
    const c = clock();
    const store = openLimitStore(":memory:");
    const limiter = createRateLimiter(3, 0.5, { now: c.now, store, name: "visitor" });
    const other = createRateLimiter(3, 0.5, { now: c.now, store, name: "visitor" });
    expect(other.take("a")).toBe(true);
    const answers = Promise.all(["a", "b", "a", "a", "b"].map((key) => limiter.takeSoon(key)));
    // Nothing is taken before the turn ends: the other limiter still finds two tokens for "a".
    expect(store.prepare("SELECT count(*) FROM buckets WHERE key = 'b'").pluck().get()).toBe(0);
    expect(await answers).toEqual([true, true, true, false, true]);
    expect(other.take("a")).toBe(false);
    c.advance(2_000);
    expect(await limiter.takeSoon("a")).toBe(true);
    expect(await limiter.takeSoon("a")).toBe(false);
  });

  it("takeSoon fails every waiting take when the store fails, and answers the next turn's", async () => {
    const store = openLimitStore(":memory:");
    const limiter = createRateLimiter(3, 0.5, { store, name: "visitor" });
    store.exec("ALTER TABLE buckets RENAME TO gone");
    const failed = await Promise.allSettled([limiter.takeSoon("a"), limiter.takeSoon("b")]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    store.exec("ALTER TABLE gone RENAME TO buckets");
    expect(await limiter.takeSoon("a")).toBe(true);
  });
});

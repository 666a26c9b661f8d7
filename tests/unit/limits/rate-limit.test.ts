/**
 * The in-memory token bucket (ADR 091): a bucket refills with the injected clock, and a full table
 * pushes out its least recently used bucket, never every bucket at once.
 */
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "#api/services/rate-limit.ts";

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

  it("evicts the least recently used key first", () => {
    const c = clock();
    const limiter = createRateLimiter(1, 1 / 3600, { now: c.now, maxKeys: 3 });
    for (const k of ["a", "b", "c"]) expect(limiter.take(k)).toBe(true);
    expect(limiter.take("a")).toBe(false); // a is now the most recent
    expect(limiter.take("d")).toBe(true); // pushes out b, the least recently used
    expect(limiter.take("a")).toBe(false);
    expect(limiter.take("c")).toBe(false);
    expect(limiter.take("b")).toBe(true); // b was forgotten, and pushes out d
    expect(limiter.take("a")).toBe(false);
  });

  it("gives nothing back when the clock goes backwards", () => {
    const c = clock();
    const limiter = createRateLimiter(1, 1, { now: c.now });
    expect(limiter.take("a")).toBe(true);
    c.advance(-60_000);
    expect(limiter.take("a")).toBe(false);
  });
});

import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#api/env.server.ts";

describe("configuration", () => {
  it("runs on embedded defaults with nothing set", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(4321);
    expect(env.PUBLIC_ORIGIN).toBe("http://localhost:4321");
    expect(env.DATA_DIR).toBe(resolve("./data"));
    expect(env.PUBLISHED_DIR).toBe(resolve("./published"));
    expect(env.DATABASE_PATH).toBe(resolve("./data/plinth.db"));
    expect(env.OUTBOX_DIR).toBe(resolve("./data/outbox"));
    expect(env.SMTP_URL).toBeUndefined();
  });

  it("derives the public origin from PORT and drops a trailing slash from an explicit one", () => {
    expect(parseEnv({ PORT: "8080" }).PUBLIC_ORIGIN).toBe("http://localhost:8080");
    expect(parseEnv({ PUBLIC_ORIGIN: "https://plinth.example/" }).PUBLIC_ORIGIN).toBe("https://plinth.example");
  });

  it("refuses nonsense with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => parseEnv({ PUBLIC_ORIGIN: "not a url" })).toThrow(/PUBLIC_ORIGIN/);
  });

  it("reads TRUST_PROXY as a number of proxies and refuses the old true", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    // "true" once meant the client-chosen leftmost X-Forwarded-For entry: the boot message says what to set.
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY: now counts the reverse proxies in front of Plinth: set 1/);
    for (const v of ["yes", "-1", "1.5", " 1", "100", ""]) expect(() => parseEnv({ TRUST_PROXY: v })).toThrow(/TRUST_PROXY: must be the number of reverse proxies/);
  });
});

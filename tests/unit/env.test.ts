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
});

/**
 * The logger's rules (ADR 190): a client's address is cut to its network, a request id is taken from
 * a trusted proxy only when it looks like one, secrets passed by mistake are removed, and LOG_LEVEL
 * and the metrics settings are checked at boot.
 */
import { describe, expect, it } from "vitest";
import { parseEnv } from "#api/env.server.ts";
import { configureLogger, log, logAddress, requestIdOf, withLogContext } from "#api/log.ts";

describe("log lines", () => {
  it("show a client's network, never its address", () => {
    expect(logAddress("203.0.113.77")).toBe("203.0.113.0/24");
    expect(logAddress("::ffff:198.51.100.9")).toBe("198.51.100.0/24");
    expect(logAddress("2001:db8:1234:5678::1")).toBe("2001:db8:1234::/48");
    expect(logAddress("2001:db8:1234:5678::/64")).toBe("2001:db8:1234::/48");
    expect(logAddress("2001:db8::1")).toBe("2001:db8:0::/48");
    expect(logAddress("unknown")).toMatch(/^h:[0-9a-f]{12}$/);
    expect(logAddress(undefined)).toBeUndefined();
  });

  it("take a forwarded request id only behind a trusted proxy, and only a plain one", () => {
    expect(requestIdOf("nginx-0123456789abcdef", 1)).toBe("nginx-0123456789abcdef");
    expect(requestIdOf("nginx-0123456789abcdef", 0)).toMatch(/^[0-9a-f-]{36}$/);
    for (const hostile of ["short", "a".repeat(65), "id with spaces 123", "<script>alert(1)</script>", "id\nforged-line", ["a-0123456789", "b-0123456789"]]) {
      expect(requestIdOf(hostile, 1)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("remove passwords, codes, tokens, cookies and headers passed by mistake, keeping an error's code", () => {
    const lines: string[] = [];
    configureLogger({ level: "debug", destination: { write: (line: string) => void lines.push(line) } });
    try {
      withLogContext({ reqId: "req-abcdefghij" }, () =>
        log().info(
          {
            password: "Sturdy-Password-42",
            code: "123456",
            body: { token: "tok_secret", code: "654321", newPassword: "New-Password-43" },
            headers: { authorization: "Bearer abc", cookie: "plinth_session=xyz" },
            user: { secret: "JBSWY3DPEHPK3PXP" },
            err: { code: "ECONNREFUSED", message: "connect refused" },
          },
          "mistake",
        ),
      );
    } finally {
      configureLogger({ level: "info", destination: { write: () => undefined } });
    }
    const text = lines.join("");
    for (const secret of ["Sturdy-Password-42", "123456", "tok_secret", "654321", "New-Password-43", "Bearer abc", "xyz", "JBSWY3DPEHPK3PXP"]) expect(text).not.toContain(secret);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ level: "info", msg: "mistake", reqId: "req-abcdefghij", err: { code: "ECONNREFUSED" } });
  });
});

describe("the logging and metrics settings", () => {
  const base = { DATA_DIR: "/tmp/plinth-log-env", PUBLISHED_DIR: "/tmp/plinth-log-env/p", SITE_DIR: "/tmp/plinth-log-env/s" };
  it("read LOG_LEVEL, LOG_PRETTY, METRICS_TOKEN and METRICS_PORT", () => {
    const plain = parseEnv(base);
    expect([plain.LOG_LEVEL, plain.LOG_PRETTY, plain.METRICS_TOKEN, plain.METRICS_PORT]).toEqual(["info", false, undefined, undefined]);
    expect(parseEnv({ ...base, NODE_ENV: "development" }).LOG_PRETTY).toBe(true);
    expect(parseEnv({ ...base, NODE_ENV: "development", LOG_PRETTY: "0" }).LOG_PRETTY).toBe(false);
    expect(parseEnv({ ...base, LOG_LEVEL: "debug", METRICS_TOKEN: "t".repeat(32), METRICS_PORT: "9464" })).toMatchObject({ LOG_LEVEL: "debug", METRICS_TOKEN: "t".repeat(32), METRICS_PORT: 9464 });
  });

  it("refuse a wrong value, naming the variable and never echoing a token", () => {
    const problems = (env: Record<string, string>) => {
      try {
        parseEnv({ ...base, ...env });
        return [];
      } catch (err) {
        return (err as { problems: string[] }).problems;
      }
    };
    expect(problems({ LOG_LEVEL: "verbose" })).toEqual(["LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent"]);
    const short = problems({ METRICS_TOKEN: "short-token" });
    expect(short).toEqual(["METRICS_TOKEN: must be 24 to 200 visible characters, no spaces (e.g. openssl rand -hex 32)"]);
    expect(problems({ METRICS_PORT: "4321" })).toEqual(["METRICS_PORT: must differ from PORT: it is a second listener, on 127.0.0.1, that serves /metrics only"]);
    expect(problems({ METRICS_PORT: "70000" })).toEqual(["METRICS_PORT: must be 65535 or less"]);
  });
});

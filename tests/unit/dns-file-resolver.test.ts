/**
 * The browser tests' DNS stand-in (ADR 243): used only with NODE_ENV=test and E2E_DNS_FILE both set,
 * and it answers the custom domain checks as DNS would from the records in its file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testResolver } from "#api/deps.ts";
import { parseEnv } from "#api/env.server.ts";
import { fileResolver } from "#api/services/dns-file-resolver.ts";
import { lookUpRecords } from "#api/services/domains.ts";

const dir = mkdtempSync(join(tmpdir(), "plinth-dns-"));
const file = join(dir, "dns.json");
const saved = process.env.E2E_DNS_FILE;

afterEach(() => {
  if (saved === undefined) delete process.env.E2E_DNS_FILE;
  else process.env.E2E_DNS_FILE = saved;
});

describe("the browser tests' DNS stand-in", () => {
  it("is never used outside NODE_ENV=test, nor without E2E_DNS_FILE", () => {
    process.env.E2E_DNS_FILE = file;
    expect(testResolver(parseEnv({ NODE_ENV: "production" }))).toBeUndefined();
    expect(testResolver(parseEnv({ NODE_ENV: "development" }))).toBeUndefined();
    expect(testResolver(parseEnv({}))).toBeUndefined();
    expect(testResolver(parseEnv({ NODE_ENV: "test" }))).toBeDefined();
    delete process.env.E2E_DNS_FILE;
    expect(testResolver(parseEnv({ NODE_ENV: "test" }))).toBeUndefined();
  });

  it("answers from the file as it stands at each lookup: missing, pointing elsewhere, then found", async () => {
    const dns = fileResolver(file);
    const token = "a".repeat(32);
    rmSync(file, { force: true });
    expect(await lookUpRecords(dns, "links.mine.net", token, "domains.plinth.net")).toMatchObject({ txt: "missing", routing: "missing" });
    writeFileSync(file, JSON.stringify({ "TXT _plinth.links.mine.net": ["plinth-verification=b"], "CNAME links.mine.net": ["other.host.net"] }));
    expect(await lookUpRecords(dns, "links.mine.net", token, "domains.plinth.net")).toMatchObject({ txt: "wrong", routing: "wrong", seenRouting: ["other.host.net"] });
    writeFileSync(
      file,
      JSON.stringify({ "TXT _plinth.links.mine.net": [`plinth-verification=${token}`], "CNAME links.mine.net": ["domains.plinth.net"], "A mine.net": ["192.0.2.10"], "A domains.plinth.net": ["192.0.2.10"] }),
    );
    expect(await lookUpRecords(dns, "links.mine.net", token, "domains.plinth.net")).toMatchObject({ txt: "found", routing: "found" });
    // An apex's A record with the target's address routes here too.
    expect(await lookUpRecords(dns, "mine.net", token, "domains.plinth.net")).toMatchObject({ routing: "found" });
    rmSync(dir, { recursive: true, force: true });
  });
});

/**
 * The browser tests' DNS (scripts/e2e-server.ts sets E2E_DNS_FILE, and only with NODE_ENV=test does
 * api/deps.ts use this): the custom domain checks' lookups answered from a JSON file the test writes,
 * `{ "TXT _plinth.links.example.com": ["plinth-verification=…"], "CNAME links.example.com": ["…"] }`.
 * A name without a record answers as node:dns does, with ENODATA; a CNAME is followed for A/AAAA.
 */
import { readFileSync } from "node:fs";
import type { DomainResolver } from "./domains.ts";

type Kind = "TXT" | "CNAME" | "A" | "AAAA";

export function fileResolver(path: string): DomainResolver {
  const records = (): Record<string, string[]> => {
    try {
      return JSON.parse(readFileSync(path, "utf8")) as Record<string, string[]>;
    } catch {
      return {};
    }
  };
  const lookup = async (kind: Kind, name: string): Promise<string[]> => {
    const values = records()[`${kind} ${name}`];
    if (!values?.length) throw Object.assign(new Error(`query${kind} ENODATA ${name}`), { code: "ENODATA" });
    return values;
  };
  const addresses = async (kind: "A" | "AAAA", name: string): Promise<string[]> => {
    const cname = records()[`CNAME ${name}`]?.[0];
    return lookup(kind, cname ? cname.replace(/\.$/, "") : name);
  };
  return {
    resolveTxt: async (name) => (await lookup("TXT", name)).map((v) => [v]),
    resolveCname: (name) => lookup("CNAME", name),
    resolve4: (name) => addresses("A", name),
    resolve6: (name) => addresses("AAAA", name),
  };
}

/**
 * A DNS stand-in for the custom domain checks (api/services/domains.ts takes it as its resolver):
 * records set by the test, and a name without a record answers as node:dns does, with ENODATA.
 */
import type { DomainResolver } from "#api/services/domains.ts";

type Kind = "TXT" | "CNAME" | "A" | "AAAA";

export interface FakeDns extends DomainResolver {
  set(kind: Kind, name: string, values: string[]): void;
  clear(): void;
  /** The names looked up, in order. */
  asked: string[];
}

export function fakeDns(): FakeDns {
  const records = new Map<string, string[]>();
  const asked: string[] = [];
  const lookup = async (kind: Kind, name: string): Promise<string[]> => {
    asked.push(`${kind} ${name}`);
    const values = records.get(`${kind} ${name}`);
    if (!values?.length) throw Object.assign(new Error(`query${kind} ENODATA ${name}`), { code: "ENODATA" });
    return values;
  };
  /** A name with a CNAME resolves to the addresses of the name it points at, as a resolver follows it. */
  const addresses = async (kind: "A" | "AAAA", name: string): Promise<string[]> => {
    const cname = records.get(`CNAME ${name}`)?.[0];
    return lookup(kind, cname ? cname.replace(/\.$/, "") : name);
  };
  return {
    asked,
    set: (kind, name, values) => void records.set(`${kind} ${name}`, values),
    clear: () => records.clear(),
    resolveTxt: async (name) => (await lookup("TXT", name)).map((v) => [v]),
    resolveCname: (name) => lookup("CNAME", name),
    resolve4: (name) => addresses("A", name),
    resolve6: (name) => addresses("AAAA", name),
  };
}

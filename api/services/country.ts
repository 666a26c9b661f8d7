/**
 * The visitor's country from their address, looked up in the IP-to-country table shipped in the
 * @ip-location-db/geo-whois-asn-country package (CC0; no download at run time). Only the two-letter
 * code is kept; the address is never stored. Each family's table is read on its first lookup of a
 * public address, on the analytics writer thread (ADR 116), so no visitor's beacon waits for it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import ipaddr from "ipaddr.js";

const require = createRequire(import.meta.url);
const PACKAGE = "@ip-location-db/geo-whois-asn-country";

interface Table<T> {
  starts: T[];
  ends: T[];
  codes: string[];
}

function load<T>(file: string, parse: (s: string) => T): Table<T> {
  const text = readFileSync(require.resolve(`${PACKAGE}/${file}`), "utf8");
  const t: Table<T> = { starts: [], ends: [], codes: [] };
  for (const line of text.split("\n")) {
    const [a, b, code] = line.split(",");
    if (!a || !b || !code || !/^[A-Z]{2}$/.test(code.trim())) continue;
    t.starts.push(parse(a));
    t.ends.push(parse(b));
    t.codes.push(code.trim());
  }
  return t;
}

function find<T>(t: Table<T>, x: T): string | null {
  let lo = 0;
  let hi = t.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (t.starts[mid]! > x) hi = mid - 1;
    else if (t.ends[mid]! < x) lo = mid + 1;
    else return t.codes[mid]!;
  }
  return null;
}

let v4: Table<number> | undefined;
let v6: Table<bigint> | undefined;
const loadV4 = () => (v4 ??= load("geo-whois-asn-country-ipv4-num.csv", Number));
const loadV6 = () => (v6 ??= load("geo-whois-asn-country-ipv6-num.csv", BigInt));

/** "DE", "JP", ...; null for a private, reserved or unknown address. Takes an address or an IPv6 "prefix/64". */
export function countryOf(address: string): string | null {
  const text = address.replace(/\/\d+$/, "");
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) {
    if (ipaddr.IPv4.parse(text).range() !== "unicast") return null;
    const n = ipaddr.IPv4.parse(text).toByteArray().reduce((acc, b) => acc * 256 + b, 0);
    return find(loadV4(), n);
  }
  if (!ipaddr.IPv6.isValid(text) || ipaddr.IPv6.parse(text).range() !== "unicast") return null;
  const n = ipaddr.IPv6.parse(text).parts.reduce((acc, p) => (acc << 16n) + BigInt(p), 0n);
  return find(loadV6(), n);
}

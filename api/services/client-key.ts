/**
 * The address a request came from, for rate limits, the sign-in throttle and abuse hashes (ADR 091).
 *
 * With TRUST_PROXY=0 it is the socket's address. Behind N reverse proxies (TRUST_PROXY=N) it is the
 * Nth X-Forwarded-For entry from the right: each proxy appends the address it saw, so the last N
 * entries were written by proxies we run, and everything to their left is whatever the client sent
 * (nginx's $proxy_add_x_forwarded_for keeps a forged first entry). Never the leftmost entry.
 *
 * An IPv4-mapped IPv6 address counts as its IPv4 address; an IPv6 client is keyed by its /64, the
 * block one household or server usually gets, so walking through the addresses of one block does
 * not walk around a limit.
 */
import type { IncomingMessage } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import ipaddr from "ipaddr.js";

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const CANONICAL_IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/** The key of a literal address: IPv4 as is, IPv6 as its /64 prefix; null when it is not an address. */
export function addressKey(raw: string): string | null {
  // Most requests: a plain dotted IPv4 address, already written the way it is keyed.
  if (CANONICAL_IPV4.test(raw)) return raw;
  let text = raw.trim();
  // A proxy may write a port: "203.0.113.7:4711" or "[2001:db8::1]:4711".
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  // Only the usual dotted form of IPv4: ipaddr.js would also read "127.1" or "0x7f.0.0.1".
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text).toString();
  if (!ipaddr.IPv6.isValid(text)) return null;
  const addr = ipaddr.process(text);
  if (addr.kind() === "ipv4") return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/**
 * Who sent a request, from the socket's address and the X-Forwarded-For header, trusting `hops`
 * proxies. Fallbacks never use a value the client chose:
 * - no header (the request did not come through the proxy), or an entry that is not an address
 *   (a trusted proxy wrote something else): the socket's address, that is the proxy's;
 * - fewer entries than hops: the leftmost, since every entry present was written by a trusted proxy.
 */
export function clientAddress(forwardedFor: string | undefined, socket: string | undefined, hops: number): string {
  const fromSocket = (socket && addressKey(socket)) || "unknown";
  if (hops <= 0 || !forwardedFor) return fromSocket;
  const entries = forwardedFor.split(",").map((e) => e.trim());
  if (entries.every((e) => e === "")) return fromSocket;
  const entry = entries[Math.max(0, entries.length - hops)]!;
  return addressKey(entry) ?? fromSocket;
}

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // app.request() in tests has no socket.
    return undefined;
  }
}

/**
 * A request header, read from Node's own parsed headers when there are some: asking Hono builds a
 * fetch Headers of every header first. Repeated headers come joined with ", ", as fetch joins them.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  return incoming ? incomingHeader(incoming, name) : c.req.header(name);
}

/** A header of a Node request, by its lower-case name; repeated ones joined with ", ". */
export function incomingHeader(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

export function clientKey(c: Context, trustProxy: number): string {
  return clientAddress(requestHeader(c, "x-forwarded-for"), socketAddress(c), trustProxy);
}

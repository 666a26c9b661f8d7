/**
 * Who a request came from (ADR 091): behind N trusted proxies the Nth X-Forwarded-For entry from the
 * right, never an entry the client wrote; IPv4-mapped addresses as IPv4; IPv6 by its /64.
 */
import { describe, expect, it } from "vitest";
import { addressKey, clientAddress } from "#api/services/client-key.ts";

describe("addressKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["203.0.113.7:4711", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::1", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::1]:443", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80::/64"],
    ["::1", "::/64"],
  ])("keys %s as %s", (raw, key) => expect(addressKey(raw)).toBe(key));

  it.each(["", "unknown", "127.1", "0x7f.0.0.1", "1.2.3.4.5", "999.1.1.1", "<script>", "2001:db8::1::2", "unix:", "1.2.3.4, 5.6.7.8"])(
    "refuses %j",
    (raw) => expect(addressKey(raw)).toBeNull(),
  );

  it("gives every address of one /64 the same key and neighbouring /64s different ones", () => {
    expect(addressKey("2001:db8:0:1::1")).toBe(addressKey("2001:db8:0:1:ffff:ffff:ffff:ffff"));
    expect(addressKey("2001:db8:0:1::1")).not.toBe(addressKey("2001:db8:0:2::1"));
  });
});

describe("clientAddress", () => {
  const socket = "10.9.9.9";

  it("uses the socket's address when no proxy is trusted, whatever the header says", () => {
    expect(clientAddress("203.0.113.1", socket, 0)).toBe(socket);
    expect(clientAddress(undefined, "::ffff:127.0.0.1", 0)).toBe("127.0.0.1");
    expect(clientAddress(undefined, undefined, 0)).toBe("unknown");
  });

  it("takes the entry the trusted proxy added, not the client's forged first entry", () => {
    // nginx's $proxy_add_x_forwarded_for: the client's header, then the address nginx saw.
    for (let i = 0; i < 5; i++) expect(clientAddress(`203.0.113.${i}, 198.51.100.7`, socket, 1)).toBe("198.51.100.7");
    expect(clientAddress("198.51.100.7", socket, 1)).toBe("198.51.100.7");
  });

  it("counts N hops from the right", () => {
    const header = "203.0.113.1, 198.51.100.7, 192.0.2.44";
    expect(clientAddress(header, socket, 1)).toBe("192.0.2.44");
    expect(clientAddress(header, socket, 2)).toBe("198.51.100.7");
    expect(clientAddress(header, socket, 3)).toBe("203.0.113.1");
    // Fewer entries than hops: every entry was written by a trusted proxy; the furthest one counts.
    expect(clientAddress("198.51.100.7, 192.0.2.44", socket, 5)).toBe("198.51.100.7");
  });

  it("falls back to the socket's address for a missing, empty or malformed entry, never to a client-chosen one", () => {
    expect(clientAddress(undefined, socket, 1)).toBe(socket);
    expect(clientAddress("", socket, 1)).toBe(socket);
    expect(clientAddress(" , ", socket, 1)).toBe(socket);
    expect(clientAddress("203.0.113.1, unknown", socket, 1)).toBe(socket);
    expect(clientAddress("203.0.113.1, <script>", socket, 1)).toBe(socket);
    expect(clientAddress("203.0.113.1,", socket, 1)).toBe(socket);
  });

  it("keys IPv6 clients by their /64 and IPv4-mapped ones as IPv4", () => {
    expect(clientAddress("2001:db8:5:6::1", socket, 1)).toBe("2001:db8:5:6::/64");
    expect(clientAddress("::ffff:198.51.100.7", socket, 1)).toBe("198.51.100.7");
    expect(clientAddress(undefined, "2001:db8:5:6:7:8:9:a", 1)).toBe("2001:db8:5:6::/64");
  });
});

/**
 * The server's request and header timeouts (issue 35): a client that sends its headers or its body
 * too slowly gets 408 and the connection closes, instead of holding it open for Node's default five
 * minutes. The real server uses HTTP_TIMEOUTS; the slow clients are tried against short ones, and
 * each waits for the server's answer, not for a clock.
 */
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpServer, HTTP_TIMEOUTS } from "#api/http-server.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";

let t: TestApp;
const servers: Server[] = [];
beforeEach(() => {
  t = createTestApp();
});
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((done) => s.close(done));
  t.close();
});

async function listening(timeouts = HTTP_TIMEOUTS): Promise<{ server: Server; port: number }> {
  const server = createHttpServer(t.deps, timeouts);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Opens a connection, writes `first` and nothing more; resolves with what the server sent once it closed the connection. */
function slowClient(port: number, first: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(first));
    let received = "";
    socket.on("data", (d) => (received += String(d)));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

describe("request and header timeouts", () => {
  it("the server gives headers 10 s and the whole request 30 s", async () => {
    const { server } = await listening();
    expect(HTTP_TIMEOUTS).toMatchObject({ headersMs: 10_000, requestMs: 30_000 });
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
  });

  it("answers 408 and closes the connection of a client whose headers never end", async () => {
    const { port } = await listening({ headersMs: 200, requestMs: 400, checkEveryMs: 50 });
    const answer = await slowClient(port, "GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it("answers 408 and closes the connection of a client whose body never ends, and the server keeps answering others", async () => {
    const { port } = await listening({ headersMs: 200, requestMs: 400, checkEveryMs: 50 });
    const head = `POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"slow`;
    const answer = await slowClient(port, head);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
  });
});

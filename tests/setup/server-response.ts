// The server process answers with @hono/node-server's own Response class, which getRequestListener
// installs as the global one (api/http-server.ts). Tests that call app.request() run under the same
// class, so an answer that would lose a header in the server loses it here too, whichever test file
// happened to start a server first.
import { getRequestListener } from "@hono/node-server";

getRequestListener(() => new Response(null));

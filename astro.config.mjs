// @ts-check
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";
import { fileURLToPath } from "node:url";
import { precompressSite } from "./scripts/lib/precompress-site.ts";
import { preloadIslands } from "./scripts/lib/preload-islands.ts";

// The site and the dashboard shell are static files served by api/server.ts; the dashboard is a
// client-only React app mounted at /dashboard/*. In development the API server proxies site requests
// to this dev server, so everything is reached on one origin (PORT, 4321). A build ends by naming a
// client-only island's modules in preload links (ADR 256), then writing brotli and gzip copies of its
// text files, which the server sends (ADR 054).
const devPort = Number(process.env.ASTRO_DEV_PORT ?? 4322);

// react-router's package exports name only its development build, whose warnings a built site
// does not need (remix-run/react-router#14102); a build takes the production build beside it.
const reactRouterProduction = {
  name: "react-router-production",
  apply: /** @type {const} */ ("build"),
  enforce: /** @type {const} */ ("pre"),
  resolveId(/** @type {string} */ id) {
    return id === "react-router" ? fileURLToPath(new URL("./node_modules/react-router/dist/production/index.mjs", import.meta.url)) : null;
  },
};

export default defineConfig({
  srcDir: "./editor",
  publicDir: "./editor/public",
  outDir: "./dist",
  output: "static",
  trailingSlash: "ignore",
  build: { format: "directory" },
  integrations: [react(), preloadIslands(), precompressSite()],
  server: { port: devPort, host: "127.0.0.1" },
  devToolbar: { enabled: false },
  vite: {
    plugins: [tailwindcss(), reactRouterProduction],
    server: { hmr: { clientPort: devPort } },
    // A screen loaded with import() fetches its own imports as the browser finds them, instead of
    // the bundler's helper first adding a preload link to the page for each one (ADR 247).
    build: { modulePreload: { resolveDependencies: (_file, deps, ctx) => (ctx.hostType === "js" ? [] : deps) } },
  },
});

// @ts-check
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";
import { precompressSite } from "./scripts/lib/precompress-site.ts";

// The site and the dashboard shell are static files served by api/server.ts; the dashboard is a
// client-only React app mounted at /dashboard/*. In development the API server proxies site requests
// to this dev server, so everything is reached on one origin (PORT, 4321). A build ends by writing
// brotli and gzip copies of its text files, which the server sends (ADR 054).
const devPort = Number(process.env.ASTRO_DEV_PORT ?? 4322);

export default defineConfig({
  srcDir: "./editor",
  publicDir: "./editor/public",
  outDir: "./dist",
  output: "static",
  trailingSlash: "ignore",
  build: { format: "directory" },
  integrations: [react(), precompressSite()],
  server: { port: devPort, host: "127.0.0.1" },
  devToolbar: { enabled: false },
  vite: {
    plugins: [tailwindcss()],
    server: { hmr: { clientPort: devPort } },
  },
});

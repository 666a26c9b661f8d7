/** Content types and caching of published files, for the built-in server and the objects of a bucket target. */

/** Files named by their content: the same name never holds other bytes. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** A page, the sitemap, robots.txt, the site's pages: whoever caches them asks again before each use. */
export const REVALIDATE = "public, max-age=0, must-revalidate";

export const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".vcf": "text/vcard; charset=utf-8",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".epub": "application/epub+zip",
  ".mp3": "audio/mpeg",
};

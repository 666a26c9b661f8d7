/**
 * Renders the site's raster images from their SVG sources in editor/public: the Open Graph image
 * (social sites read PNG, not SVG), the PNG favicon, the Apple touch icon and the manifest icons.
 * Run after changing og.svg or favicon.svg: `npx tsx scripts/site-images.ts`; commit the PNGs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";

const dir = join(import.meta.dirname, "../editor/public");
const og = readFileSync(join(dir, "og.svg"));
const icon = readFileSync(join(dir, "favicon.svg"));

await sharp(og, { density: 72 }).resize(1200, 630).png({ compressionLevel: 9, palette: true }).toFile(join(dir, "og.png"));
for (const [name, size] of [["favicon-32.png", 32], ["apple-touch-icon.png", 180], ["icon-192.png", 192], ["icon-512.png", 512]] as const) {
  await sharp(icon, { density: Math.ceil((72 * size) / 32) }).resize(size, size).png({ compressionLevel: 9 }).toFile(join(dir, name));
}
// The maskable icon keeps the mark inside the safe zone (the inner 80%) on a full-bleed background.
await sharp({ create: { width: 512, height: 512, channels: 4, background: "#4f46e5" } })
  .composite([{ input: await sharp(icon, { density: 1024 }).resize(360, 360).png().toBuffer(), gravity: "center" }])
  .png({ compressionLevel: 9 })
  .toFile(join(dir, "icon-maskable-512.png"));
console.log("wrote og.png, favicon-32.png, apple-touch-icon.png, icon-192.png, icon-512.png, icon-maskable-512.png");

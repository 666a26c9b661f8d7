/**
 * The crop dialog's output: the chosen area drawn onto a canvas of docs/product.md's size and encoded as a
 * JPEG (docs/product.md section 9: 400 px square, or 800 px wide at the full-width height's aspect; quality 0.95).
 */
import type { Area } from "react-easy-crop";
import { LIMITS } from "#core/limits.ts";
import { cropOutputSize, type PictureShape } from "#core/profile.ts";
import type { FullwidthSubtype } from "#core/themes.ts";

export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("The image could not be read"));
    img.src = src;
  });
}

export async function cropToJpeg(src: string, area: Area, shape: PictureShape, fullwidthHeight: FullwidthSubtype): Promise<Blob> {
  const img = await loadImage(src);
  const { width, height } = cropOutputSize(shape, fullwidthHeight);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("Canvas is not available");
  // JPEG has no transparency: a transparent PNG or GIF goes on white, not on black.
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The picture could not be encoded"))), "image/jpeg", LIMITS.CROP_JPEG_QUALITY),
  );
}

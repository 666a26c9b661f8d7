/** Only http(s), mailto and tel URLs become links; anything else is dropped at render. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  const u = url.trim();
  // Refuse control characters and whitespace tricks before checking the scheme.
  if (/[\u0000-\u001f\u007f\s]/.test(u)) return null;
  return /^(https?:\/\/|mailto:|tel:)/i.test(u) ? u : null;
}

/** Same, but also allows same-site relative paths (uploaded media under /media/). */
export function safeSrc(url: string | null | undefined): string | null {
  if (!url) return null;
  const u = url.trim();
  if (/^\/(?!\/)[^\s\\]*$/.test(u)) return u;
  const h = safeHref(u);
  return h && /^https?:/i.test(h) ? h : null;
}

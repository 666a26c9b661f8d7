/** The page's critical CSS, inlined in a <style> whose hash goes into the CSP. */
import type { PageProfile } from "#core/model.ts";
import { FONT_PAIRINGS, getTheme } from "#core/themes.ts";

const HEX = /^#[0-9a-fA-F]{6}$/;
const color = (v: string | null, fallback: string) => (v && HEX.test(v) ? v : fallback);

export function fontFaceCss(fonts: Record<string, string[]>, families: string[]): string {
  let out = "";
  for (const f of families) {
    for (const url of fonts[f] ?? []) {
      const weight = /-700\./.test(url) ? 700 : 400;
      out += `@font-face{font-family:"${f}";src:url(${url}) format("woff2");font-weight:${weight};font-display:swap}`;
    }
  }
  return out;
}

export function pageCss(p: PageProfile, plus: boolean, fonts: Record<string, string[]>): string {
  const t = getTheme(p.selectedThemeName);
  const pairing = plus ? FONT_PAIRINGS.find((f) => f.id === p.customFontPairingName) : undefined;
  const bg = color(p.customPageBackgroundColor, t.background);
  const btnBg = color(p.customButtonBackgroundColor, t.buttonBackground);
  const btnBd = color(p.customButtonBorderColor, t.buttonBorder);
  const radius = p.buttonShapeStyle === "box" ? "0" : p.buttonShapeStyle === "pill" ? "999px" : "12px";
  const head = pairing ? `"${pairing.heading}",` : "";
  const body = pairing ? `"${pairing.body}",` : "";
  return (
    (pairing ? fontFaceCss(fonts, [...new Set([pairing.heading, pairing.body])]) : "") +
    `*{box-sizing:border-box}body{margin:0;min-height:100vh;background:${bg};color:${t.text};font:16px/1.5 ${body}system-ui,sans-serif}` +
    `h1,h2{font-family:${head}system-ui,sans-serif}.pg{max-width:640px;margin:0 auto;padding:24px 16px}.hd{text-align:center}` +
    `h1{font-size:1.5rem;margin:8px 0}.bio,.msg,.ft{color:${t.mutedText}}.lf{white-space:pre-line;margin:16px 0}` +
    `.pic{display:block;margin:0 auto;object-fit:cover}.ic{width:96px;height:96px}.ic-rounded{border-radius:50%}.ic-rounded_corners{border-radius:16px}` +
    `.fw{width:100%}.fw-portrait{aspect-ratio:4/5}.fw-square{aspect-ratio:1}.fw-landscape{aspect-ratio:16/9}` +
    `.ini{width:96px;height:96px;border-radius:50%;color:#fff;font-size:2rem;font-weight:700;display:flex;align-items:center;justify-content:center}` +
    `.ls{list-style:none;margin:0;padding:0}.ls li{margin:12px 0}` +
    `.btn{display:flex;gap:8px;align-items:center;justify-content:center;width:100%;min-height:48px;padding:12px 16px;background:${btnBg};color:${t.buttonText};border:2px solid ${btnBd};border-radius:${radius};text-decoration:none;font:inherit;font-weight:600;cursor:pointer}` +
    `.main{min-height:60px;font-size:1.125rem;box-shadow:0 4px 12px rgba(0,0,0,.2)}.th{border-radius:4px;object-fit:cover}` +
    `.lbl{font-size:1.1rem;margin:24px 0 8px;text-align:center}a{color:inherit}.txt{text-align:center}` +
    `.soc{display:flex;flex-wrap:wrap;gap:8px;justify-content:center;margin:16px 0}.soc a,.soc button{display:inline-flex;align-items:center;justify-content:center;min-width:44px;min-height:44px;border-radius:50%;border:1px solid currentColor;background:none;color:inherit;font:inherit;font-size:.75rem;text-decoration:none;cursor:pointer}` +
    `.soc-floating{position:fixed;right:12px;bottom:12px;flex-direction:column}` +
    `.ft{display:flex;flex-wrap:wrap;gap:8px;justify-content:center;padding:24px 16px;font-size:.875rem}.ft button{background:none;border:0;color:inherit;text-decoration:underline;font:inherit;cursor:pointer;min-height:44px}.brand{width:100%;text-align:center;margin:0}` +
    `:focus-visible{outline:3px solid ${t.text};outline-offset:2px}` +
    `dialog{max-width:min(92vw,420px);border-radius:12px;color:#111827;background:#fff}dialog label,dialog select,dialog input,dialog textarea{display:block;width:100%;margin:6px 0}.err{color:#b91c1c}` +
    `.ck{position:fixed;left:0;right:0;bottom:0;padding:16px;background:#fff;color:#111827;box-shadow:0 -2px 8px rgba(0,0,0,.2)}.ck button{margin:4px;min-height:44px}` +
    `#toast{position:fixed;left:50%;top:16px;transform:translateX(-50%);background:#111827;color:#fff;padding:8px 12px;border-radius:8px}#toast:empty{display:none}` +
    `.pv{background:#facc15;color:#111827;text-align:center;padding:8px;font-weight:600}`
  );
}

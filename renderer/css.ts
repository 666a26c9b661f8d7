/**
 * The page's whole stylesheet, inlined in one <style> whose hash goes into the CSP. It is small
 * enough that all of it is critical CSS. Nothing here may come from user text: colours are checked
 * against #rrggbb, fonts and themes come from core's lists. No node: APIs: the dashboard's live
 * preview draws with this same stylesheet in the browser (render.tsx adds the CSP hash).
 */
import { playerOf } from "#core/embeds.ts";
import type { PageLink, PageProfile } from "#core/model.ts";
import { FONT_PAIRINGS, getTheme, type FontPairingId, type ThemeId } from "#core/themes.ts";
import type { VisibleContent } from "#core/visible-content.ts";
import { drawnColorsOf, isHexColor, MIN_LARGE_TEXT_CONTRAST, readableOn } from "#core/color.ts";

/** Everything the stylesheet depends on; pages that share it share one cached stylesheet. */
export interface PageStyle {
  themeId: ThemeId;
  fontPairing: FontPairingId | null;
  pageBackground: string | null;
  buttonBackground: string | null;
  buttonBorder: string | null;
  buttonShape: PageProfile["buttonShapeStyle"];
  initialsBackground: string;
  /** Whether the page draws a player or a Music card, whose rules only such pages carry (ADR 212). */
  media?: boolean;
}

/** Whether a page with these links draws a player or a Music card. */
export function hasMediaBlocks(links: readonly PageLink[]): boolean {
  for (let i = 0; i < links.length; i++) {
    const l = links[i]!;
    if (l.linkType === "music" || (l.data.player === "on" && playerOf(l))) return true;
  }
  return false;
}

export function pageStyleOf(p: PageProfile, v: Pick<VisibleContent, "themeId" | "fontPairing"> & Partial<Pick<VisibleContent, "links">>): PageStyle {
  return {
    media: v.links ? hasMediaBlocks(v.links) : false,
    themeId: v.themeId,
    fontPairing: v.fontPairing,
    pageBackground: isHexColor(p.customPageBackgroundColor) ? p.customPageBackgroundColor.toLowerCase() : null,
    buttonBackground: isHexColor(p.customButtonBackgroundColor) ? p.customButtonBackgroundColor.toLowerCase() : null,
    buttonBorder: isHexColor(p.customButtonBorderColor) ? p.customButtonBorderColor.toLowerCase() : null,
    buttonShape: p.buttonShapeStyle,
    initialsBackground: isHexColor(p.initialsBgColor) ? p.initialsBgColor.toLowerCase() : "#6366f1",
  };
}

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

const SYSTEM = 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif';
const RADIUS = { box: "0", rounded: "12px", pill: "999px" } as const;

export interface PageStylesheet {
  css: string;
  /** A flat colour for theme-color and the floating icon bar. */
  base: string;
}

const cache = new Map<string, PageStylesheet>();

/**
 * Players and Music cards (ADR 212): the facade fills the box its player will (a video's aspect
 * ratio, an audio player's fixed height), so nothing moves when the embed replaces it.
 */
function mediaCss(bg: string, text: string, border: string, radius: string, font: string): string {
  return (
    `.ply{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:10px;width:100%;padding:16px 24px;background:${bg};color:${text};border:2px solid ${border};border-radius:${radius};font:700 1.1875rem/1.3 ${font};text-align:center;text-decoration:none;overflow-wrap:anywhere;cursor:pointer}` +
    `.pp{display:flex;align-items:center;justify-content:center;width:56px;height:56px;border-radius:50%;border:2px solid currentColor}.pp svg{margin-left:3px}` +
    `.a-v{aspect-ratio:16/9}.a-p{aspect-ratio:9/16;max-width:340px;margin:0 auto}.a-w{height:176px}.a-t{height:452px}` +
    `.emb{display:block;width:100%;border:0;border-radius:${radius}}` +
    `.mus,.pay{padding:16px;background:${bg};color:${text};border:2px solid ${border};border-radius:${radius};text-align:center}` +
    `.pay label{display:block;margin:12px 0 4px;font-size:.9375rem}.pay textarea,.pay input[name=custom]{box-sizing:border-box;width:100%;min-height:44px;padding:8px;font:inherit;border:1px solid currentColor;border-radius:8px}` +
    `.pay .chk{display:flex;gap:8px;align-items:center;justify-content:center}.pay .chk input{width:20px;height:20px}` +
    `.amts{display:grid;grid-template-columns:repeat(auto-fit,minmax(80px,1fr));gap:8px}.own .btn{margin-top:8px}` +
    `.cv{display:flex;align-items:center;justify-content:center;width:96px;height:96px;margin:0 auto 8px;border-radius:8px;object-fit:cover}` +
    `.mt{margin:0 0 12px;font:700 1.1875rem/1.3 ${font};overflow-wrap:anywhere}` +
    `.msl{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(132px,1fr));gap:8px}` +
    `.msv{display:flex;align-items:center;justify-content:center;gap:8px;min-height:44px;padding:8px 12px;border:1px solid currentColor;border-radius:8px;font-weight:600;text-decoration:none}`
  );
}

/**
 * The stylesheet and the page's flat base colour. Memoised (the same object for the same style):
 * bulk republish renders many alike pages. */
export function pageCss(style: PageStyle, fonts: Record<string, string[]>): PageStylesheet {
  // Every field is an id from core's lists, a #rrggbb colour or null (never ""): joined, they tell styles apart.
  const key = `${style.themeId} ${style.fontPairing ?? ""} ${style.pageBackground ?? ""} ${style.buttonBackground ?? ""} ${style.buttonBorder ?? ""} ${style.buttonShape} ${style.initialsBackground}${style.media ? " media" : ""}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const t = getTheme(style.themeId);
  const pairing = style.fontPairing ? FONT_PAIRINGS.find((f) => f.id === style.fontPairing) : undefined;
  // The colours the Theme screen's contrast warnings judge too (core/color.ts, ADR 146).
  const drawn = drawnColorsOf(t, style);
  const { background: bg, base, text, muted, buttonBackground: btnBg, buttonText: btnText, buttonBorder: btnBd } = drawn;
  const iniText = readableOn(style.initialsBackground, ["#ffffff"], MIN_LARGE_TEXT_CONTRAST);
  const radius = RADIUS[style.buttonShape];
  const head = pairing ? `"${pairing.heading}",${SYSTEM}` : SYSTEM;
  const body = pairing ? `"${pairing.body}",${SYSTEM}` : SYSTEM;
  const css =
    (pairing ? fontFaceCss(fonts, [...new Set([pairing.heading, pairing.body])]) : "") +
    `*{box-sizing:border-box}[hidden]{display:none!important}html{-webkit-text-size-adjust:100%}` +
    `body{margin:0;min-height:100vh;background:${bg};color:${text};font:16px/1.5 ${body}}` +
    `a{color:inherit}h1,h2,h3,h4{font-family:${head}}` +
    `.pg{max-width:580px;margin:0 auto;padding:40px 16px 16px}.hd{text-align:center}` +
    `picture{display:contents}.pic{display:block;margin:0 auto 16px;object-fit:cover}.ic{width:96px;height:96px}.ic-rounded{border-radius:50%}.ic-rounded_corners{border-radius:16px}` +
    `.fw{width:100%;height:auto;border-radius:16px}.fw-portrait{aspect-ratio:3/4}.fw-square{aspect-ratio:1}.fw-landscape{aspect-ratio:16/9}` +
    `.ini{width:96px;height:96px;border-radius:50%;background:${style.initialsBackground};color:${iniText};font:700 2.25rem/1 ${head};display:flex;align-items:center;justify-content:center}` +
    `h1{font-size:1.5rem;line-height:1.25;margin:0;overflow-wrap:anywhere}` +
    `.bio{margin:8px 0 0;color:${muted};white-space:pre-line;overflow-wrap:anywhere}` +
    `.soc{display:flex;flex-wrap:wrap;justify-content:center;gap:4px;margin:16px 0 0;padding:0;list-style:none}` +
    `.soc a,.soc button{display:inline-flex;align-items:center;justify-content:center;width:44px;height:44px;border:0;border-radius:50%;background:none;color:inherit;cursor:pointer;padding:0}` +
    `.soc a:hover,.soc button:hover{background:rgba(127,127,127,.18)}` +
    `.soc-bottom{margin:32px 0 0}.soc-floating{position:fixed;right:12px;bottom:calc(12px + var(--ck-room,0px));flex-direction:column;margin:0;padding:4px;border-radius:28px;background:${base};box-shadow:0 4px 16px rgba(0,0,0,.2);z-index:5}` +
    `.ls{list-style:none;margin:28px 0 0;padding:0;display:flex;flex-direction:column;gap:14px}` +
    `.btn{position:relative;display:flex;align-items:center;justify-content:center;width:100%;min-height:56px;padding:12px 56px;` +
    `background:${btnBg};color:${btnText};border:2px solid ${btnBd};border-radius:${radius};font:700 1.1875rem/1.3 ${body};` +
    `text-align:center;text-decoration:none;overflow-wrap:anywhere;cursor:pointer;transition:transform .15s,box-shadow .15s}` +
    `.btn:hover{transform:translateY(-2px);box-shadow:0 6px 14px rgba(0,0,0,.15)}` +
    `.btn .th,.btn svg{position:absolute;left:8px;top:50%;transform:translateY(-50%)}.btn svg{left:18px}` +
    `.th{width:40px;height:40px;object-fit:cover;border-radius:${style.buttonShape === "pill" ? "50%" : style.buttonShape === "box" ? "0" : "8px"}}` +
    `.main{min-height:68px;font-size:1.3125rem;box-shadow:0 8px 20px rgba(0,0,0,.22)}` +
    `.lbl{font-size:1.125rem;line-height:1.3;text-align:center;margin:14px 0 0;overflow-wrap:anywhere}` +
    `.txt{margin:0;text-align:center;overflow-wrap:anywhere}.txt a{display:inline-block;padding:10px 4px}` +
    `.msg{margin:8px 0 0;text-align:center;color:${muted};font-size:.9375rem;overflow-wrap:anywhere}` +
    (style.media ? mediaCss(btnBg, btnText, btnBd, style.buttonShape === "box" ? "0" : "16px", body) : "") +
    `.grp{margin-top:36px}.grp .lbl{margin:0}.grp .ls{margin-top:14px}` +
    // Long-form text (Markdown, ADR 126): a line break the owner typed stays one.
    `.lf{margin:36px 0 0;white-space:pre-line;overflow-wrap:anywhere}.lf p,.lf ul,.lf ol{margin:0 0 12px}.lf ul,.lf ol{padding-left:1.5em}.lf li>ul,.lf li>ol{margin:4px 0 0}` +
    `.lf h2,.lf h3,.lf h4{line-height:1.3;margin:24px 0 8px}.lf h2{font-size:1.25rem}.lf h3{font-size:1.125rem}.lf h4{font-size:1rem}.lf>:first-child{margin-top:0}.lf a{text-decoration:underline}` +
    `.ft{max-width:580px;margin:0 auto;padding:24px 16px 40px;display:flex;flex-wrap:wrap;justify-content:center;gap:0 12px;color:${muted};font-size:.875rem}` +
    `.ft button{min-height:44px;padding:0 6px;border:0;background:none;color:inherit;font:inherit;text-decoration:underline;cursor:pointer}` +
    `.brand{flex-basis:100%;text-align:center;margin:8px 0 0}.brand a{display:inline-block;padding:8px 4px}` +
    `:focus-visible{outline:3px solid ${text};outline-offset:2px}` +
    `dialog{width:min(calc(100vw - 32px),420px);max-height:calc(100vh - 32px);overflow:auto;border:0;border-radius:16px;padding:24px;color:#111827;background:#fff;box-shadow:0 24px 60px rgba(0,0,0,.35);font-family:${SYSTEM}}` +
    `dialog::backdrop{background:rgba(17,24,39,.6)}dialog h2{font:700 1.25rem/1.3 ${SYSTEM};margin:0 0 12px;overflow-wrap:anywhere}dialog p{margin:0 0 12px;overflow-wrap:anywhere}` +
    `dialog label{display:block;font-weight:600;margin:14px 0 6px}` +
    `dialog input,dialog select,dialog textarea{display:block;width:100%;min-height:44px;padding:10px 12px;border:1px solid #6b7280;border-radius:8px;font:inherit;color:inherit;background:#fff}dialog textarea{min-height:96px;resize:vertical}` +
    `.acts{display:flex;flex-wrap:wrap;gap:8px;justify-content:flex-end;margin-top:20px}` +
    `.b1,.b2{display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:44px;padding:10px 14px;border-radius:8px;font:inherit;font-weight:600;text-decoration:none;cursor:pointer}` +
    `.b1{background:#111827;color:#fff;border:1px solid #111827}.b2{background:#fff;color:#111827;border:1px solid #6b7280}` +
    `dialog :focus-visible,.ck :focus-visible,#toast :focus-visible{outline-color:#1d4ed8}` +
    `.err{margin:12px 0 0;color:#b91c1c}.err:empty{display:none}.err b{display:block}` +
    `.qr img{display:block;width:min(100%,250px);height:auto;margin:0 auto 12px;image-rendering:pixelated}.u{text-align:center;color:#4b5563;font-size:.875rem}` +
    `.cp{display:flex;gap:8px}.cp input{flex:1;min-width:0}.cpd{margin:8px 0 0}.cpd:empty{display:none}.cpd b{display:block}` +
    `.net{list-style:none;margin:16px 0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(110px,1fr));gap:8px}.net a{width:100%}` +
    `.sh img{display:block;width:160px;height:auto;margin:0 auto;image-rendering:pixelated}` +
    `.card{margin:0;display:grid;grid-template-columns:auto 1fr;gap:6px 16px}.card dt{font-weight:600}.card dd{margin:0;overflow-wrap:anywhere}` +
    `.ck{display:none;position:fixed;left:8px;right:8px;bottom:8px;max-width:560px;max-height:calc(100vh - 16px);overflow:auto;margin:0 auto;padding:10px 12px;border-radius:14px;background:#fff;color:#111827;box-shadow:0 10px 40px rgba(0,0,0,.3);z-index:10;font:13px/1.35 ${SYSTEM}}` +
    // Compact (at most 15% of a phone's screen, its three choices on one row from 360 px: ADR 147),
    // so little of the page hides under it; on a phone a sheet along the bottom edge. At 390x844 it is
    // about 121 px: three lines of text and one row of 40 px buttons.
    `@media (max-width:575.98px){.ck{left:0;right:0;bottom:0;max-height:100vh;border-radius:14px 14px 0 0}}` +
    `.ck-open .ck{display:block}.ck h2{display:inline;font-size:1em;margin:0 4px 0 0}.ck p{display:inline;margin:0}.ck .acts{justify-content:flex-start;gap:6px;margin-top:8px}.ck .b1,.ck .b2{flex:1 1 auto;min-height:40px;padding:6px 8px;font-size:12px;white-space:nowrap}` +
    `.pg:focus{outline:0}` +
    `.ck fieldset{border:1px solid #d1d5db;border-radius:12px;margin:14px 0 0;padding:8px 14px}.ck legend{font-weight:600;padding:0 4px}` +
    `.ck label{display:flex;gap:10px;align-items:flex-start;padding:8px 0}.ck input{width:20px;height:20px;margin:2px 0 0;flex:none}.ck small{display:block;color:#4b5563}` +
    `#toast{position:fixed;left:50%;top:16px;transform:translateX(-50%);width:max-content;max-width:calc(100vw - 32px);padding:12px 16px;border-radius:12px;background:#111827;color:#fff;box-shadow:0 8px 24px rgba(0,0,0,.3);z-index:20;font:15px/1.4 ${SYSTEM}}#toast:empty{display:none}#toast b{display:block}` +
    `.sr{position:fixed;top:0;left:0;width:1px;height:1px;opacity:0}` +
    `.pv{position:sticky;top:0;z-index:15;padding:10px 16px;background:#fde047;color:#111827;text-align:center;font:600 15px/1.4 ${SYSTEM}}` +
    `@media (prefers-reduced-motion:reduce){.btn{transition:none}.btn:hover{transform:none}}`;
  const out = { css, base };
  if (cache.size > 500) cache.clear();
  cache.set(key, out);
  return out;
}

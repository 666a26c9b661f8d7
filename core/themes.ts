/**
 * Themes (docs/product.md section 6 and 9), font pairings, button styles and the appearance defaults.
 * Every colour pair here keeps text contrast at WCAG AA (4.5:1) or better: a theme must never cost
 * an owner their accessibility score. (White on docs/product.md's default button blue #3b82f6 is only 3.7:1,
 * so Minimalist Light's buttons carry dark text.)
 */
export interface Theme {
  id: string;
  name: string;
  /** Free themes are the only ones listed for Lite. */
  free: boolean;
  /** Page background: a colour, or a CSS gradient for the gradient themes. */
  background: string;
  /** A flat colour close to the background, for browsers' theme-color and contrast checks. */
  backgroundBase: string;
  text: string;
  mutedText: string;
  buttonBackground: string;
  buttonText: string;
  buttonBorder: string;
}

export const THEMES = [
  { id: "minimalist-light", name: "Minimalist Light", free: true, background: "#ffffff", backgroundBase: "#ffffff", text: "#111827", mutedText: "#4b5563", buttonBackground: "#3b82f6", buttonText: "#0f172a", buttonBorder: "#3b82f6" },
  { id: "minimalist-dark", name: "Minimalist Dark", free: true, background: "#111827", backgroundBase: "#111827", text: "#f9fafb", mutedText: "#d1d5db", buttonBackground: "#f9fafb", buttonText: "#111827", buttonBorder: "#f9fafb" },
  { id: "vibrant-bright", name: "Vibrant Bright", free: true, background: "#fef3c7", backgroundBase: "#fef3c7", text: "#1f2937", mutedText: "#4b5563", buttonBackground: "#be185d", buttonText: "#ffffff", buttonBorder: "#9d174d" },
  { id: "pastel-soft", name: "Pastel Soft", free: true, background: "#fdf2f8", backgroundBase: "#fdf2f8", text: "#374151", mutedText: "#4b5563", buttonBackground: "#ede9fe", buttonText: "#4c1d95", buttonBorder: "#c4b5fd" },
  { id: "gradient-sunset", name: "Gradient Sunset", free: false, background: "linear-gradient(160deg,#7c2d12 0%,#9d174d 55%,#581c87 100%)", backgroundBase: "#7f1d4f", text: "#ffffff", mutedText: "#fde68a", buttonBackground: "#ffffff", buttonText: "#7c2d12", buttonBorder: "#ffffff" },
  { id: "neon-dark", name: "Neon Dark", free: false, background: "#0a0a0a", backgroundBase: "#0a0a0a", text: "#e5e7eb", mutedText: "#a3e635", buttonBackground: "#0a0a0a", buttonText: "#a3e635", buttonBorder: "#a3e635" },
  { id: "forest-green", name: "Forest Green", free: false, background: "#14532d", backgroundBase: "#14532d", text: "#f0fdf4", mutedText: "#bbf7d0", buttonBackground: "#f0fdf4", buttonText: "#14532d", buttonBorder: "#bbf7d0" },
  { id: "ocean-blue", name: "Ocean Blue", free: false, background: "linear-gradient(180deg,#0c4a6e 0%,#1e3a8a 100%)", backgroundBase: "#0f3f7a", text: "#f0f9ff", mutedText: "#bae6fd", buttonBackground: "#e0f2fe", buttonText: "#0c4a6e", buttonBorder: "#7dd3fc" },
  { id: "royal-purple", name: "Royal Purple", free: false, background: "#3b0764", backgroundBase: "#3b0764", text: "#faf5ff", mutedText: "#e9d5ff", buttonBackground: "#facc15", buttonText: "#3b0764", buttonBorder: "#facc15" },
  { id: "golden-hour", name: "Golden Hour", free: false, background: "linear-gradient(180deg,#fef3c7 0%,#fde68a 100%)", backgroundBase: "#fdecaa", text: "#451a03", mutedText: "#78350f", buttonBackground: "#92400e", buttonText: "#ffffff", buttonBorder: "#78350f" },
  { id: "mint-fresh", name: "Mint Fresh", free: false, background: "#ecfdf5", backgroundBase: "#ecfdf5", text: "#064e3b", mutedText: "#065f46", buttonBackground: "#047857", buttonText: "#ffffff", buttonBorder: "#065f46" },
  { id: "rose-gold", name: "Rose Gold", free: false, background: "linear-gradient(160deg,#fff1f2 0%,#fecdd3 100%)", backgroundBase: "#ffe4e6", text: "#4c0519", mutedText: "#881337", buttonBackground: "#9f1239", buttonText: "#ffffff", buttonBorder: "#881337" },
] as const satisfies readonly Theme[];

export type ThemeId = (typeof THEMES)[number]["id"];
export const THEME_IDS = THEMES.map((t) => t.id) as [ThemeId, ...ThemeId[]];
export const FREE_THEME_IDS = THEMES.filter((t) => t.free).map((t) => t.id);

export function getTheme(id: string | null | undefined): Theme {
  return THEMES.find((t) => t.id === id) ?? THEMES[0];
}

export interface FontPairing {
  id: string;
  name: string;
  /** Family names; the renderer self-hosts their files from npm packages. */
  heading: string;
  body: string;
}

export const FONT_PAIRINGS = [
  { id: "modern-sans", name: "Modern Sans", heading: "Inter", body: "Inter" },
  { id: "elegant-serif", name: "Elegant Serif", heading: "Playfair Display", body: "Lora" },
  { id: "tech-mono", name: "Tech Mono", heading: "JetBrains Mono", body: "Inter" },
  { id: "creative-display", name: "Creative Display", heading: "Poppins", body: "Nunito" },
  { id: "professional", name: "Professional", heading: "Merriweather", body: "Source Sans 3" },
] as const satisfies readonly FontPairing[];

export type FontPairingId = (typeof FONT_PAIRINGS)[number]["id"];
export const FONT_PAIRING_IDS = FONT_PAIRINGS.map((f) => f.id) as [FontPairingId, ...FontPairingId[]];

export const BUTTON_STYLES = ["box", "rounded", "pill"] as const;
export type ButtonStyle = (typeof BUTTON_STYLES)[number];

export const SOCIAL_POSITIONS = ["top", "bottom", "floating"] as const;
export type SocialPosition = (typeof SOCIAL_POSITIONS)[number];

/** Stored picture styles: icon and full_width from the data model, initials and hidden from the editor. */
export const PICTURE_STYLES = ["icon", "full_width", "initials", "hidden"] as const;
export const ICON_SUBTYPES = ["rounded", "rounded_corners", "square"] as const;
export type IconSubtype = (typeof ICON_SUBTYPES)[number];
export const FULLWIDTH_SUBTYPES = ["portrait", "square", "landscape"] as const;
export type FullwidthSubtype = (typeof FULLWIDTH_SUBTYPES)[number];

/** docs/product.md section 9, Defaults and Initials. */
export const APPEARANCE_DEFAULTS = {
  theme: "minimalist-light" as ThemeId,
  initialsBackgroundColor: "#6366f1",
};

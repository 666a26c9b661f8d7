/**
 * Theme (/dashboard/appearance): the 12 themes (8 marked PLUS), page background, button background and
 * border colours, button style, social links position, font pairing (Plus) and branding (Plus). Each
 * choice is saved to the draft at once and shows in the live preview, based on the Theme revision on
 * screen (a choice refused because another tab changed the theme meanwhile brings the Reload offer:
 * ADR 069). A Lite owner's Plus choices are not saved: they show in the preview, with the note that
 * publishing them needs Plus.
 */
import { Check } from "lucide-react";
import { useState } from "react";
import { toast } from "../../toast.tsx";
import type { PageProfile } from "#core/model.ts";
import { plusOnlyFeatureOf, PROFILE_MESSAGES } from "#core/profile.ts";
import type { AppearanceInput } from "#core/schemas/profile.ts";
import { BUTTON_STYLES, FONT_PAIRINGS, getTheme, SOCIAL_POSITIONS, THEMES, type ButtonStyle, type SocialPosition } from "#core/themes.ts";
import { ApiFailure } from "../../api.ts";
import { useStaleWrite } from "../../components/StaleWrite.tsx";
import { PlusBadge, PlusMark } from "../../components/plus-badge.tsx";
import { featureName } from "../../components/upgrade-prompt.tsx";
import { useBlocked } from "../../components/use-blocked.ts";
import { EditorWithPreview } from "../../preview/EditorWithPreview.tsx";
import { saveProfileEdit } from "../../preview/save.ts";
import { useCurrentSnapshot, useProfileDraft } from "../../preview/store.ts";
import { useDashboard } from "../../store.ts";
import { ColorField } from "./ColorField.tsx";
import { contrastWarningsOf } from "#core/color.ts";
import { RadioCards } from "./RadioCards.tsx";
import { ScreenHeader, ScreenLoading } from "../ScreenHeader.tsx";

const BUTTON_STYLE_LABELS: Record<ButtonStyle, string> = { box: "Box", rounded: "Rounded", pill: "Pill" };
const BUTTON_RADIUS: Record<ButtonStyle, string> = { box: "rounded-none", rounded: "rounded-md", pill: "rounded-full" };
const POSITION_LABELS: Record<SocialPosition, { label: string; hint: string }> = {
  top: { label: "Top", hint: "Under your bio" },
  bottom: { label: "Bottom", hint: "After your links" },
  floating: { label: "Floating", hint: "Fixed in the corner" },
};
const THEME_DEFAULT_FONT = "theme-default";

type Status = { kind: "idle" } | { kind: "saving" } | { kind: "saved" } | { kind: "trying"; text: string };

export default function AppearanceScreen() {
  const saved = useProfileDraft((s) => s.snapshot?.profile ?? null);
  const shown = useCurrentSnapshot()?.profile ?? null;
  const me = useDashboard((s) => s.me);
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const stale = useStaleWrite(() => useProfileDraft.getState().load(true));
  // A premium theme the owner's own colours fully replace is not refused, and carries no mark (ADR 136).
  const themeBlocked = useBlocked("premium_themes");
  const fontsBlocked = useBlocked("custom_fonts");
  const brandingBlocked = useBlocked("remove_branding");

  if (!saved || !shown || !me) return <EditorWithPreview>{<ScreenLoading path="/dashboard/appearance" />}</EditorWithPreview>;
  const lite = me.plan.effectivePlan === "lite";
  const paying = me.plan.isPayingPlus;
  const theme = getTheme(shown.selectedThemeName);
  const draft = useProfileDraft.getState;

  async function choose(edit: AppearanceInput) {
    const keys = Object.keys(edit) as (keyof PageProfile)[];
    const feature = lite ? plusOnlyFeatureOf(edit, saved!) : null;
    if (feature) {
      draft().setTryOn(edit as Partial<PageProfile>);
      setStatus({ kind: "trying", text: `Previewing ${featureName(feature).toLowerCase()}: a Plinth Plus feature. It is not saved to your page.` });
      return;
    }
    draft().dropTryOn(keys);
    setStatus({ kind: "saving" });
    try {
      await saveProfileEdit("appearance", edit);
      setStatus({ kind: "saved" });
    } catch (err) {
      setStatus({ kind: "idle" });
      if (stale.report(err)) return;
      if (err instanceof ApiFailure && err.status === 400) toast.error(err.message);
      else if (!(err instanceof ApiFailure && err.status === 402)) toast.error(PROFILE_MESSAGES.saveFailed);
    }
  }

  // A custom background is checked against the text the page will draw on it, chosen by the
  // renderer's own function (ADR 146), for the colours the preview shows.
  const warnings = contrastWarningsOf(theme, {
    pageBackground: shown.customPageBackgroundColor,
    buttonBackground: shown.customButtonBackgroundColor,
    buttonBorder: shown.customButtonBorderColor,
  });
  const colour = (key: "customPageBackgroundColor" | "customButtonBackgroundColor" | "customButtonBorderColor", label: string, fallback: string, warning: string | null = null) => {
    const custom = saved[key];
    return (
      <div>
        <ColorField
          label={label}
          value={custom}
          fallback={fallback}
          resettable
          onPreview={(hex) => draft().setPending({ [key]: hex })}
          onRevert={() => draft().dropPending([key])}
          onCommit={(hex) => void choose({ [key]: hex })}
        />
        {warning ? (
          <p role="status" className="mt-1 text-sm text-amber-800">
            {label}: {warning}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <EditorWithPreview>
      <section aria-labelledby="screen-title">
        {stale.alert}
        <ScreenHeader path="/dashboard/appearance" />
        <p role="status" className="mt-2 min-h-5 text-sm text-slate-700" data-testid="appearance-status">
          {status.kind === "saving" ? "Saving..." : status.kind === "saved" ? PROFILE_MESSAGES.saved : status.kind === "trying" ? status.text : ""}
        </p>

        <fieldset className="mt-4">
          <legend className="mb-2 text-sm font-semibold">Theme</legend>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4">
            {THEMES.map((t) => {
              const checked = shown.selectedThemeName === t.id;
              return (
                <label
                  key={t.id}
                  data-testid={`theme-${t.id}`}
                  className="relative flex cursor-pointer flex-col overflow-hidden rounded-lg border border-slate-300 bg-white text-sm has-checked:border-brand-600 has-checked:ring-2 has-checked:ring-brand-600 has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600"
                >
                  <input type="radio" name="theme" value={t.id} checked={checked} onChange={() => void choose({ selectedThemeName: t.id })} className="sr-only" />
                  <span aria-hidden className="flex h-20 flex-col items-center justify-center gap-1.5 px-3" style={{ background: t.background }}>
                    <span className="h-2 w-12 rounded-full" style={{ background: t.text }} />
                    <span className="flex h-5 w-full max-w-24 items-center justify-center rounded-md border-2" style={{ background: t.buttonBackground, borderColor: t.buttonBorder }}>
                      <span className="h-1.5 w-10 rounded-full" style={{ background: t.buttonText }} />
                    </span>
                  </span>
                  {/* The PLUS badge sits on the swatch's corner, so the name keeps the whole line. */}
                  {!t.free && !paying && !(themeBlocked && t.id === saved.selectedThemeName) ? (
                    <span className="absolute right-1.5 top-1.5">
                      <PlusBadge feature="premium_themes" />
                    </span>
                  ) : null}
                  <span className="flex min-h-10 items-center gap-1 px-2 py-1.5">
                    {checked ? <Check aria-hidden className="size-4 shrink-0 text-brand-700" /> : null}
                    <span className="truncate whitespace-nowrap font-medium">{t.name}</span>
                  </span>
                  {!t.free && !paying && themeBlocked && t.id === saved.selectedThemeName ? (
                    <span className="-mt-1 px-2 pb-2">
                      <PlusMark feature="premium_themes" />
                    </span>
                  ) : null}
                </label>
              );
            })}
          </div>
        </fieldset>

        <fieldset className="mt-8 grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold">Colours</legend>
          {colour("customPageBackgroundColor", "Page background", theme.backgroundBase, warnings.pageBackground)}
          {colour("customButtonBackgroundColor", "Button background", theme.buttonBackground, warnings.buttonBackground)}
          {colour("customButtonBorderColor", "Button border", theme.buttonBorder)}
        </fieldset>

        <RadioCards<ButtonStyle>
          legend="Button style"
          name="button-style"
          value={shown.buttonShapeStyle}
          options={BUTTON_STYLES.map((v) => ({
            value: v,
            label: BUTTON_STYLE_LABELS[v],
            icon: <span aria-hidden className={`h-4 w-8 border-2 border-slate-500 bg-slate-200 ${BUTTON_RADIUS[v]}`} />,
          }))}
          onChange={(v) => void choose({ buttonShapeStyle: v })}
        />

        <RadioCards<SocialPosition>
          legend="Social links position"
          name="social-position"
          value={shown.socialLinksPosition}
          options={SOCIAL_POSITIONS.map((v) => ({ value: v, ...POSITION_LABELS[v] }))}
          onChange={(v) => void choose({ socialLinksPosition: v })}
        />

        <RadioCards<string>
          legend={<>Font pairing {fontsBlocked ? <PlusMark feature="custom_fonts" /> : paying ? null : <PlusBadge feature="custom_fonts" />}</>}
          name="font-pairing"
          columns="grid-cols-1 sm:grid-cols-2"
          value={shown.customFontPairingName ?? THEME_DEFAULT_FONT}
          options={[{ id: THEME_DEFAULT_FONT, name: "Theme default", heading: "System", body: "System" }, ...FONT_PAIRINGS].map((f) => ({
            value: f.id,
            label: f.name,
            hint: f.id === THEME_DEFAULT_FONT ? "Your device's own font" : `${f.heading} and ${f.body}`,
          }))}
          onChange={(id) => void choose({ customFontPairingName: id === THEME_DEFAULT_FONT ? null : (id as AppearanceInput["customFontPairingName"]) })}
        />

        <fieldset className="mt-6">
          <legend className="mb-2 flex items-center gap-2 text-sm font-semibold">Branding {brandingBlocked ? <PlusMark feature="remove_branding" /> : paying ? null : <PlusBadge feature="remove_branding" />}</legend>
          <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
            <input
              type="checkbox"
              checked={shown.removeBranding}
              onChange={(e) => void choose({ removeBranding: e.target.checked })}
              className="size-4 accent-brand-600"
            />
            <span>
              <span className="font-medium">Remove Plinth branding</span>
              <span className="block text-xs text-slate-600">Hides "Powered by Plinth" at the bottom of your page.</span>
            </span>
          </label>
        </fieldset>
      </section>
    </EditorWithPreview>
  );
}

/**
 * Bio & SEO (/dashboard/bio): display name, bio with a live counter, SEO title and meta description
 * with a live search-result preview (Plus: seo_settings), long-form text (Plus) with its own switch
 * (ADR 136: off keeps the text and leaves it off the page; it saves at once). What the owner types
 * shows in the live preview at once; Save Changes puts it in the draft, based on the Bio & SEO revision
 * the form started from. If another tab saved meanwhile, the save is refused and Reload brings in the
 * other tab's fields while keeping what the owner typed in the others (ADR 069).
 */
import { Search } from "lucide-react";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { toast } from "../../toast.tsx";
import { LIMITS } from "#core/limits.ts";
import type { PageProfile } from "#core/model.ts";
import type { FeatureKey } from "#core/plans.ts";
import { addressShown } from "#core/domains.ts";
import { PROFILE_MESSAGES, searchResultOf } from "#core/profile.ts";
import { ApiFailure } from "../../api.ts";
import { useStaleWrite } from "../../components/StaleWrite.tsx";
import { mergeLatest } from "../../revisions.ts";
import { PlusBadge, PlusMark } from "../../components/plus-badge.tsx";
import { Button } from "../../components/button.tsx";
import { useBlocked } from "../../components/use-blocked.ts";
import { VisibilitySwitch } from "../../components/visibility-switch.tsx";
import { EditorWithPreview } from "../../preview/EditorWithPreview.tsx";
import { saveProfileEdit } from "../../preview/save.ts";
import { useProfileDraft } from "../../preview/store.ts";
import { useUnsavedChanges } from "../../shell/unsaved.tsx";
import { useDashboard } from "../../store.ts";
import { ScreenHeader, ScreenLoading } from "../ScreenHeader.tsx";

const FIELDS = ["displayName", "bio", "seoTitle", "seoDescription", "longFormText"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

const MAX: Record<Field, number> = {
  displayName: LIMITS.DISPLAY_NAME_MAX,
  bio: LIMITS.BIO_MAX,
  seoTitle: LIMITS.SEO_TITLE_MAX,
  seoDescription: LIMITS.SEO_DESCRIPTION_MAX,
  longFormText: LIMITS.LONG_FORM_TEXT_MAX,
};
const TOO_LONG: Record<Field, string> = {
  displayName: PROFILE_MESSAGES.displayNameTooLong,
  bio: PROFILE_MESSAGES.bioTooLong,
  seoTitle: PROFILE_MESSAGES.seoTitleTooLong,
  seoDescription: PROFILE_MESSAGES.seoDescriptionTooLong,
  longFormText: PROFILE_MESSAGES.longFormTextTooLong,
};

const fieldId = (field: Field) => `bio-${field}`;
const LONG_TEXT_SWITCH = "Show long-form text on my page";
const LONG_TEXT_SHOWN = "Long-form text shown on your page";
const LONG_TEXT_HIDDEN = "Long-form text hidden: your text is kept";

/** The Markdown the page draws in long-form text (renderer/markdown.ts, ADR 126). */
const MARKDOWN_HELP: [string, string][] = [
  ["## Heading", "a heading"],
  ["*italic*", "italic"],
  ["**bold**", "bold"],
  ["- item", "a list"],
  ["1. item", "a numbered list"],
  ["[text](https://example.com)", "a link"],
];

function MarkdownHelp() {
  return (
    <>
      <p>Formatting you can use:</p>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1" aria-label="Formatting you can use">
        {MARKDOWN_HELP.map(([code, what]) => (
          <li key={code}>
            <code className="rounded bg-slate-100 px-1 text-slate-800">{code}</code> {what}
          </li>
        ))}
      </ul>
      <p className="mt-1">HTML tags show as you type them.</p>
    </>
  );
}
const valuesOf = (p: PageProfile): Values => ({ displayName: p.displayName, bio: p.bio, seoTitle: p.seoTitle, seoDescription: p.seoDescription, longFormText: p.longFormText });
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

function TextField(props: {
  field: Field;
  label: string;
  value: string;
  error?: string;
  multiline?: number;
  disabled?: boolean;
  onChange(v: string): void;
  hint?: ReactNode;
}) {
  const { field, label, value, error, multiline, disabled, onChange, hint } = props;
  const id = fieldId(field);
  const max = MAX[field];
  const over = value.length > max;
  const message = error ?? (over ? TOO_LONG[field] : "");
  const common = {
    id,
    value,
    disabled,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
    "aria-invalid": message ? true : undefined,
    "aria-describedby": `${id}-count${hint ? ` ${id}-help` : ""}${message ? ` ${id}-err` : ""}`,
    className: "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 disabled:bg-slate-100 disabled:text-slate-600 aria-invalid:border-red-600",
  } as const;
  return (
    <div className="mt-4">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <span id={`${id}-count`} className={`text-xs tabular-nums ${over ? "font-semibold text-red-700" : "text-slate-600"}`} data-testid={`${field}-count`}>
          {value.length}/{max}
        </span>
      </div>
      {multiline ? <textarea rows={multiline} {...common} /> : <input type="text" autoComplete="off" {...common} />}
      {hint ? (
        <div id={`${id}-help`} className="mt-1 text-sm text-slate-600">
          {hint}
        </div>
      ) : null}
      {message ? (
        <p id={`${id}-err`} className="mt-1 text-sm text-red-700" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  );
}

function PlusLock({ feature, title, children, stored, onClear }: { feature: FeatureKey; title: string; children: ReactNode; stored: boolean; onClear(): void }) {
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  return (
    <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{children}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button onClick={() => openUpgrade(feature)}>Upgrade to Plus</Button>
        {stored ? (
          <Button variant="secondary" onClick={onClear}>
            Remove from my page
          </Button>
        ) : null}
      </div>
    </div>
  );
}

export default function BioScreen() {
  const saved = useProfileDraft((s) => s.snapshot?.profile ?? null);
  const me = useDashboard((s) => s.me);
  const longBlocked = useBlocked("long_form_text");
  const seoBlocked = useBlocked("seo_settings");
  const [values, setValues] = useState<Values | null>(null);
  /** What the form's values started from, and its revision: what a save is based on. */
  const [form, setForm] = useState<{ base: Values; revision: number } | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  const latest = useMemo(() => (saved ? valuesOf(saved) : null), [saved]);
  const base = form?.base ?? null;
  const dirty = !!values && !!base && FIELDS.some((f) => values[f] !== base[f]);
  /** Start the form over from the saved draft as it is now. */
  const startFrom = (v: Values) => setForm({ base: v, revision: useProfileDraft.getState().revisions.text });

  // Follow the saved draft (first load, another tab, a discard) unless the owner is mid-edit.
  useEffect(() => {
    if (latest && !dirty) {
      setValues(latest);
      startFrom(latest);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [latest]);

  const stale = useStaleWrite(async () => {
    await useProfileDraft.getState().load(true);
    const profile = useProfileDraft.getState().snapshot?.profile;
    if (!profile || !values || !base) return null;
    const now = valuesOf(profile);
    const merged = mergeLatest(values, base, now);
    setValues(merged.values);
    startFrom(now);
    setErrors({});
    const draft = useProfileDraft.getState();
    draft.clearPending();
    draft.setPending(Object.fromEntries(FIELDS.filter((f) => merged.values[f] !== now[f]).map((f) => [f, merged.values[f]])));
    const first = merged.changed[0];
    return first ? document.getElementById(fieldId(first)) : null;
  });

  useUnsavedChanges("bio", dirty);

  if (!values || !base || !saved || !me) return <EditorWithPreview>{<ScreenLoading path="/dashboard/bio" />}</EditorWithPreview>;
  const can = (f: FeatureKey) => (me.plan.features as readonly string[]).includes(f);
  const seoAllowed = can("seo_settings");
  const longAllowed = can("long_form_text");
  const plus = me.plan.effectivePlan === "plus";

  function change(field: Field, v: string) {
    setValues((cur) => ({ ...(cur as Values), [field]: v }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    useProfileDraft.getState().setPending({ [field]: v });
  }

  async function save(edit: Partial<Values>) {
    setSaving(true);
    const { ProfileTextSchema } = await import("#core/schemas/profile.ts");
    const parsed = ProfileTextSchema.safeParse(edit);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      setSaving(false);
      return;
    }
    try {
      await saveProfileEdit("text", parsed.data, form?.revision);
      useProfileDraft.getState().clearPending();
      const now = useProfileDraft.getState().snapshot?.profile;
      if (now) {
        setValues(valuesOf(now));
        startFrom(valuesOf(now));
      }
      toast.success(PROFILE_MESSAGES.saved, { description: PROFILE_MESSAGES.savedText });
    } catch (err) {
      if (stale.report(err)) return;
      if (err instanceof ApiFailure && err.status === 400) setErrors(err.fields as Partial<Record<Field, string>>);
      else if (!(err instanceof ApiFailure && err.status === 402)) toast.error(PROFILE_MESSAGES.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  /** The long-form text's switch saves at once; what is typed in the form stays as it is. */
  async function showLongText(visible: boolean) {
    try {
      await saveProfileEdit("text", { longFormTextVisible: visible }, form?.revision);
      setForm((f) => f && { ...f, revision: useProfileDraft.getState().revisions.text });
      toast.success(visible ? LONG_TEXT_SHOWN : LONG_TEXT_HIDDEN);
    } catch (err) {
      if (stale.report(err)) return;
      toast.error(PROFILE_MESSAGES.saveFailed);
    }
  }

  const changed = Object.fromEntries(FIELDS.filter((f) => values[f] !== base[f]).map((f) => [f, values[f]])) as Partial<Values>;
  const hasErrors = FIELDS.some((f) => values[f].length > MAX[f]);
  const result = searchResultOf({ username: saved.username, ...values }, plus);
  const pageUrl = addressShown(me.pageAddress);

  return (
    <EditorWithPreview>
      <section aria-labelledby="screen-title">
        {stale.alert}
        <ScreenHeader path="/dashboard/bio" />

        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (dirty && !hasErrors) void save(changed);
          }}
        >
          <h2 className="mt-6 text-lg font-semibold">Profile</h2>
          <TextField field="displayName" label="Display name" value={values.displayName} error={errors.displayName} onChange={(v) => change("displayName", v)} />
          <TextField field="bio" label="Bio" value={values.bio} error={errors.bio} multiline={4} onChange={(v) => change("bio", v)} />

          <h2 className="mt-8 flex items-center gap-2 text-lg font-semibold">
            SEO Settings {seoBlocked ? <PlusMark feature="seo_settings" /> : me.plan.isPayingPlus ? null : <PlusBadge feature="seo_settings" />}
          </h2>
          {seoAllowed ? null : (
            <PlusLock
              feature="seo_settings"
              title="SEO settings are a Plinth Plus feature"
              stored={!!(saved.seoTitle || saved.seoDescription)}
              onClear={() => void save({ seoTitle: "", seoDescription: "" })}
            >
              With Plus you choose the title and description search engines and link previews show. Until then they come from your name and bio.
            </PlusLock>
          )}
          <TextField field="seoTitle" label="SEO title" value={values.seoTitle} error={errors.seoTitle} disabled={!seoAllowed} onChange={(v) => change("seoTitle", v)} />
          <TextField
            field="seoDescription"
            label="Meta description"
            value={values.seoDescription}
            error={errors.seoDescription}
            multiline={3}
            disabled={!seoAllowed}
            onChange={(v) => change("seoDescription", v)}
          />
          <figure className="mt-4 rounded-md border border-slate-200 bg-white p-4" aria-labelledby="serp-caption">
            <figcaption id="serp-caption" className="mb-2 flex items-center gap-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <Search aria-hidden className="size-3" /> Search result preview
            </figcaption>
            <div data-testid="search-preview">
              <p className="truncate text-sm text-slate-700">{pageUrl}</p>
              <p className="truncate text-lg text-[#1a0dab]" data-testid="search-preview-title">
                {clip(result.title, LIMITS.SEO_TITLE_MAX)}
              </p>
              <p className="text-sm text-slate-700" data-testid="search-preview-description">
                {clip(result.description, LIMITS.SEO_DESCRIPTION_MAX)}
              </p>
            </div>
          </figure>

          <h2 className="mt-8 flex items-center gap-2 text-lg font-semibold">
            Long-form text {longBlocked ? <PlusMark feature="long_form_text" /> : me.plan.isPayingPlus ? null : <PlusBadge feature="long_form_text" />}
          </h2>
          {longAllowed ? null : (
            // "Remove from my page" switches the text off: it stays in the draft for a later upgrade.
            <PlusLock feature="long_form_text" title="Long-form text is a Plinth Plus feature" stored={!!saved.longFormText.trim() && saved.longFormTextVisible} onClear={() => void showLongText(false)}>
              With Plus you can add an about section below your links.
            </PlusLock>
          )}
          <div className="mt-3 flex items-center gap-3">
            <VisibilitySwitch checked={saved.longFormTextVisible} label={LONG_TEXT_SWITCH} onChange={(v) => void showLongText(v)} />
            <span className="text-sm text-slate-700" aria-hidden>
              {LONG_TEXT_SWITCH}
            </span>
          </div>
          <TextField
            field="longFormText"
            label="About section"
            value={values.longFormText}
            error={errors.longFormText}
            multiline={8}
            disabled={!longAllowed}
            onChange={(v) => change("longFormText", v)}
            hint={<MarkdownHelp />}
          />

          <div className="sticky bottom-0 mt-6 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white py-3">
            <Button type="submit" disabled={!dirty || hasErrors || saving}>
              {saving ? "Saving..." : "Save Changes"}
            </Button>
            {dirty ? (
              <Button
                variant="ghost"
                onClick={() => {
                  // Back to the saved text as it is now (another tab may have saved since the form began).
                  setValues(latest);
                  if (latest) startFrom(latest);
                  setErrors({});
                  useProfileDraft.getState().clearPending();
                }}
              >
                Undo changes
              </Button>
            ) : null}
            <span className="text-sm text-slate-600" role="status">
              {dirty ? "You have unsaved changes" : ""}
            </span>
          </div>
        </form>
      </section>
    </EditorWithPreview>
  );
}

/**
 * A colour: the system colour picker plus a hex input, validated with core's HexColorSchema. Every
 * change shows in the preview at once; it is saved when the picker closes, or when the hex input is
 * left or Enter is pressed with a valid colour.
 */
import { useEffect, useId, useRef, useState } from "react";
import { PROFILE_MESSAGES } from "#core/profile.ts";

/** core's HexColorSchema, loaded at the first check rather than with the screen (ADR 123). */
const hexColor = () => import("#core/schemas/profile.ts").then((m) => m.HexColorSchema);

export function ColorField(props: {
  label: string;
  /** The saved colour; null means the theme's own (shown as `fallback`). */
  value: string | null;
  fallback: string;
  onPreview(hex: string): void;
  onCommit(hex: string | null): void;
  /** The preview goes back to the saved colour (an invalid hex was left). */
  onRevert(): void;
  /** Offer "Use theme colour" (value back to null). */
  resettable?: boolean;
  disabled?: boolean;
}) {
  const { label, value, fallback, onPreview, onCommit, onRevert, resettable, disabled } = props;
  const id = useId();
  const shown = value ?? fallback;
  const [text, setText] = useState(shown);
  const [error, setError] = useState("");
  const picker = useRef<HTMLInputElement>(null);
  const latest = useRef({ onCommit, value });
  latest.current = { onCommit, value };

  useEffect(() => {
    setText(shown);
    setError("");
  }, [shown]);

  // React's onChange on a colour input fires while the picker is open; the native change event fires
  // once, when the owner settles on a colour. That is when it is saved.
  useEffect(() => {
    const el = picker.current;
    if (!el) return;
    const commit = () => {
      if (el.value.toLowerCase() !== (latest.current.value ?? "").toLowerCase()) latest.current.onCommit(el.value.toLowerCase());
    };
    el.addEventListener("change", commit);
    return () => el.removeEventListener("change", commit);
  }, []);

  async function commitText() {
    const parsed = (await hexColor()).safeParse(text);
    if (!parsed.success) {
      setError(PROFILE_MESSAGES.colorInvalid);
      onRevert();
      return;
    }
    setError("");
    setText(parsed.data);
    if (parsed.data !== (value ?? "").toLowerCase()) onCommit(parsed.data);
    else onRevert();
  }

  return (
    <div>
      <label htmlFor={`${id}-hex`} className="block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <input
          ref={picker}
          type="color"
          aria-label={`${label} picker`}
          value={(/^#[0-9a-fA-F]{6}$/.test(text) ? text : /^#[0-9a-fA-F]{6}$/.test(shown) ? shown : "#000000").toLowerCase()}
          disabled={disabled}
          onChange={(e) => {
            setText(e.target.value);
            setError("");
            onPreview(e.target.value);
          }}
          className="h-10 w-12 cursor-pointer rounded border border-slate-300 bg-white p-1 disabled:cursor-not-allowed"
        />
        <input
          id={`${id}-hex`}
          type="text"
          inputMode="text"
          autoComplete="off"
          spellCheck={false}
          value={text}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            const typed = e.target.value;
            void hexColor().then((schema) => {
              const parsed = schema.safeParse(typed);
              if (parsed.success) {
                setError("");
                onPreview(parsed.data);
              }
            });
          }}
          onBlur={commitText}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              void commitText();
            }
          }}
          className="h-10 w-28 rounded-md border border-slate-300 px-2 font-mono text-sm aria-invalid:border-red-600"
        />
        {resettable && value !== null ? (
          <button type="button" onClick={() => onCommit(null)} disabled={disabled} className="min-h-10 rounded px-2 text-sm text-brand-700 underline hover:bg-slate-50">
            Use theme colour
          </button>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-err`} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

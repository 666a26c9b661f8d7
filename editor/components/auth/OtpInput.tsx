/**
 * Six single-digit boxes (spec section 5, OTP): digits only, typing moves on, Backspace moves back,
 * a pasted code fills every box, and a full code is submitted by itself.
 */
import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent } from "react";

interface Props {
  value: string;
  onChange(value: string): void;
  /** Called once the sixth digit is in. */
  onComplete?(code: string): void;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  autoFocus?: boolean;
  length?: number;
  label?: string;
}

export default function OtpInput({ value, onChange, onComplete, disabled, invalid, describedBy, autoFocus = true, length = 6, label = "Verification code" }: Props) {
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const digits = Array.from({ length }, (_, i) => value[i] ?? "");

  useEffect(() => {
    if (autoFocus && !disabled) boxes.current[Math.min(value.length, length - 1)]?.focus();
    // Focus only when mounted or re-enabled, not on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoFocus, disabled]);

  function set(next: string, focus: number) {
    const clean = next.replace(/\D/g, "").slice(0, length);
    onChange(clean);
    boxes.current[Math.max(0, Math.min(focus, length - 1))]?.focus();
    if (clean.length === length) onComplete?.(clean);
  }

  function typed(i: number, raw: string) {
    const added = raw.replace(/\D/g, "");
    if (!added) return;
    // One digit replaces this box's; several at once (autofill of a one-time code) fill from here on.
    const before = digits.slice(0, i).join("");
    const after = added.length === 1 ? digits.slice(i + 1).join("") : "";
    set(before + added + after, before.length + added.length);
  }

  /** What arrived in box i: a replacement digit, one more digit typed beside the old one, or a whole code. */
  function changed(i: number, raw: string) {
    const got = raw.replace(/\D/g, "");
    const old = digits[i] ?? "";
    if (got.length === 0) {
      if (raw === "" && old) set(value.slice(0, i) + value.slice(i + 1), i);
      return;
    }
    if (got.length === 2 && old && got.includes(old)) return typed(i, got[0] === old ? got[1]! : got[0]!);
    typed(i, got);
  }

  function keyDown(i: number, e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Backspace") {
      e.preventDefault();
      if (digits[i]) set(value.slice(0, i) + value.slice(i + 1), i);
      else if (i > 0) set(value.slice(0, i - 1) + value.slice(i), i - 1);
    } else if (e.key === "ArrowLeft" && i > 0) {
      e.preventDefault();
      boxes.current[i - 1]?.focus();
    } else if (e.key === "ArrowRight" && i < length - 1) {
      e.preventDefault();
      boxes.current[i + 1]?.focus();
    }
  }

  function pasted(e: ClipboardEvent<HTMLInputElement>) {
    e.preventDefault();
    const text = e.clipboardData.getData("text").replace(/\D/g, "").slice(0, length);
    if (text) set(text, text.length);
  }

  return (
    <div role="group" aria-label={label} aria-describedby={describedBy} className="flex justify-between gap-2">
      {digits.map((d, i) => (
        <input
          key={i}
          ref={(el) => {
            boxes.current[i] = el;
          }}
          value={d}
          onChange={(e) => changed(i, e.target.value)}
          onKeyDown={(e) => keyDown(i, e)}
          onPaste={pasted}
          onFocus={(e) => e.target.select()}
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={i === 0 ? "one-time-code" : "off"}
          maxLength={length}
          disabled={disabled}
          aria-label={`Digit ${i + 1} of ${length}`}
          aria-invalid={invalid || undefined}
          className="size-12 min-w-0 rounded-md border border-slate-400 bg-white text-center text-xl font-semibold text-slate-900 aria-[invalid=true]:border-red-600 disabled:bg-slate-100 sm:size-14"
        />
      ))}
    </div>
  );
}

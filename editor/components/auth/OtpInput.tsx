/**
 * Six single-digit boxes (docs/product.md section 5, OTP), in React for the dashboard; the rules of each
 * keystroke are field-rules.ts's. Digits only, typing moves on, Backspace moves back, a pasted code
 * fills every box, and a full code is submitted by itself.
 */
import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent } from "react";
import { otpKey, otpPasted, otpTyped, type OtpStep } from "./field-rules.ts";

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

  function apply(step: OtpStep | null) {
    if (!step) return;
    onChange(step.code);
    boxes.current[step.focus]?.focus();
    if (step.code.length === length) onComplete?.(step.code);
  }

  function keyDown(i: number, e: KeyboardEvent<HTMLInputElement>) {
    const key = otpKey(value, length, i, e.key);
    if (!key) return;
    e.preventDefault();
    if ("move" in key) boxes.current[key.move]?.focus();
    else apply(key.step);
  }

  function pasted(e: ClipboardEvent<HTMLInputElement>) {
    const step = otpPasted(e.clipboardData.getData("text"), length);
    if (!step) return;
    e.preventDefault();
    apply(step);
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
          onChange={(e) => apply(otpTyped(value, length, i, e.target.value))}
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

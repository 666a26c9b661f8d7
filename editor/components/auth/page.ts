/**
 * What the sign-in and signup pages' scripts share (ADR 122): their markup is rendered at build
 * (AuthField.astro, PasswordInput.astro, OtpBoxes.astro, GoogleLink.astro) and these functions make it
 * live without a framework: field errors that leave as soon as the field is valid, alerts, busy
 * buttons, the show/hide password toggle, the six code boxes, and the Google link.
 */
import { passwordChecks, passwordStrength, type PasswordCheck } from "#core/auth-rules.ts";
import { clearFixed } from "../field-errors.ts";
import { auth } from "./api.ts";
import { otpKey, otpPasted, otpTyped, STRENGTH_LOOK, type OtpStep } from "./field-rules.ts";

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

/** The message under one field (its `{id}-error` paragraph), and the field's invalid state. */
export function setFieldError(input: HTMLInputElement, message?: string | null) {
  const box = byId(`${input.id}-error`);
  box.textContent = message ?? "";
  box.hidden = !message;
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

/**
 * A form's field errors by input name. `show` puts up the messages a submit found; every edit
 * after that keeps only the errors whose field is still invalid (with its current message), and
 * typing never adds one (issue 25, "Never lose typing").
 */
export function fieldErrors(form: HTMLFormElement, check: () => Record<string, string>) {
  let shown: Record<string, string> = {};
  const inputs = () => [...form.querySelectorAll<HTMLInputElement>("input[name]")].filter((i) => document.getElementById(`${i.id}-error`));
  const render = () => {
    for (const input of inputs()) setFieldError(input, shown[input.name]);
  };
  form.addEventListener("input", () => {
    if (Object.keys(shown).length === 0) return;
    shown = clearFixed(shown, check());
    render();
  });
  return {
    show(fields: Record<string, string>) {
      shown = { ...fields };
      render();
      const first = inputs().find((i) => shown[i.name]);
      first?.focus();
    },
    clear() {
      shown = {};
      render();
    },
  };
}

const TONE = {
  error: "border-red-300 bg-red-50 text-red-900",
  success: "border-green-300 bg-green-50 text-green-900",
  info: "border-slate-300 bg-slate-50 text-slate-800",
} as const;

/** An alert box (the React pages' Alert): role alert for errors, status otherwise. */
export function alertBox(kind: keyof typeof TONE, text: string, title?: string): HTMLDivElement {
  const box = document.createElement("div");
  box.setAttribute("role", kind === "error" ? "alert" : "status");
  box.className = `rounded-md border px-3 py-2 text-sm ${TONE[kind]}`;
  if (title) {
    const t = document.createElement("p");
    t.className = "font-semibold";
    t.textContent = title;
    box.append(t);
  }
  if (text) {
    const body = document.createElement("p");
    if (title) body.className = "mt-1";
    body.textContent = text;
    box.append(body);
  }
  return box;
}

/** The alerts of a form: its `[data-alerts]` box, emptied by `clear`. */
export function alerts(form: HTMLElement) {
  const holder = form.querySelector<HTMLElement>("[data-alerts]")!;
  return {
    show(kind: keyof typeof TONE, text: string, title?: string) {
      const box = alertBox(kind, text, title);
      holder.append(box);
      return box;
    },
    clear() {
      holder.replaceChildren();
    },
  };
}

/** A submit button that says what it is doing, and cannot be pressed twice meanwhile. */
export function setBusy(button: HTMLButtonElement, busy: boolean, label?: string) {
  button.dataset.label ??= button.textContent ?? "";
  button.disabled = busy;
  if (busy) button.setAttribute("aria-busy", "true");
  else button.removeAttribute("aria-busy");
  button.textContent = busy && label ? label : button.dataset.label;
}

/** Every show/hide button of the page's password fields (PasswordInput.astro). */
export function passwordToggles(root: ParentNode = document) {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-toggle-password]")) {
    const input = byId<HTMLInputElement>(button.dataset.togglePassword!);
    const name = button.dataset.name!;
    button.addEventListener("click", () => {
      const shown = input.type === "password";
      input.type = shown ? "text" : "password";
      button.setAttribute("aria-label", `${shown ? "Hide" : "Show"} ${name}`);
      button.setAttribute("aria-pressed", String(shown));
      button.querySelector("[data-eye]")!.toggleAttribute("hidden", shown);
      button.querySelector("[data-eye-off]")!.toggleAttribute("hidden", !shown);
    });
  }
}

/** The controls stay disabled until the script has taken over (the markup starts them disabled). */
export function ready(root: ParentNode = document) {
  for (const set of root.querySelectorAll<HTMLFieldSetElement>("fieldset[data-until-ready]")) set.disabled = false;
}

let providers: Promise<{ google: boolean; label?: string | null; googleLogo?: boolean }> | undefined;

/**
 * 'Continue with Google' (GoogleLink.astro) shows only when the server has sign-in with an OpenID
 * Connect provider set up, with the server's text (OIDC_BUTTON_LABEL) and Google's logo only for Google.
 */
export function googleLink(holder: HTMLElement, params: { next?: string | null; remember?: boolean; username?: string | null }) {
  providers ??= auth.providers
    .$get()
    .then((r) => (r.ok ? r.json() : { google: false }))
    .catch(() => ({ google: false }));
  const link = holder.querySelector("a")!;
  const update = (p: typeof params) => {
    const q = new URLSearchParams({ remember: p.remember === false ? "0" : "1" });
    if (p.next) q.set("next", p.next);
    if (p.username) q.set("username", p.username);
    link.href = `/api/auth/google?${q}`;
  };
  update(params);
  void providers.then((p) => {
    if (p.label) link.querySelector("[data-label]")!.textContent = p.label;
    link.querySelector("svg")!.toggleAttribute("hidden", p.googleLogo === false);
    holder.hidden = !p.google;
  });
  return update;
}

/**
 * Six single-digit boxes (OtpBoxes.astro; docs/product.md section 5, OTP): digits only, typing moves on,
 * Backspace moves back, a pasted code fills every box, and a full code is handed on by itself.
 */
export function otpBoxes(group: HTMLElement, onChange: (code: string) => void, onComplete: (code: string) => void) {
  const boxes = [...group.querySelectorAll<HTMLInputElement>("input")];
  const length = boxes.length;
  let value = "";

  function apply(step: OtpStep | null): boolean {
    if (!step) return false;
    value = step.code;
    boxes.forEach((b, i) => (b.value = value[i] ?? ""));
    boxes[step.focus]!.focus();
    onChange(value);
    if (value.length === length) onComplete(value);
    return true;
  }

  boxes.forEach((box, i) => {
    // Nothing to take from the box: it shows its digit again.
    box.addEventListener("input", () => apply(otpTyped(value, length, i, box.value)) || (box.value = value[i] ?? ""));
    box.addEventListener("keydown", (e) => {
      const key = otpKey(value, length, i, e.key);
      if (!key) return;
      e.preventDefault();
      if ("move" in key) boxes[key.move]!.focus();
      else apply(key.step);
    });
    box.addEventListener("paste", (e) => {
      // Only a paste that carries digits is taken over; anything else goes on as a normal paste.
      if (apply(otpPasted(e.clipboardData?.getData("text") ?? "", length))) e.preventDefault();
    });
    box.addEventListener("focus", () => box.select());
  });

  return {
    get value() {
      return value;
    },
    clear() {
      value = "";
      for (const b of boxes) b.value = "";
      onChange("");
    },
    disabled(on: boolean) {
      for (const b of boxes) b.disabled = on;
    },
    invalid(on: boolean) {
      for (const b of boxes) {
        if (on) b.setAttribute("aria-invalid", "true");
        else b.removeAttribute("aria-invalid");
      }
    },
    focus() {
      boxes[Math.min(value.length, length - 1)]!.focus();
    },
  };
}

/** The strength meter and checks (PasswordMeter.astro) for the password as typed now. */
export function passwordMeter(meter: HTMLElement, password: string) {
  const { strength, meter: share } = passwordStrength(password);
  const [label, colour] = STRENGTH_LOOK[strength];
  const bar = meter.querySelector<HTMLElement>("[role=meter]")!;
  bar.setAttribute("aria-valuenow", String(Math.round(share * 5)));
  bar.setAttribute("aria-valuetext", label);
  const fill = bar.querySelector<HTMLElement>("[data-bar]")!;
  fill.className = `h-full ${colour} transition-[width]`;
  fill.style.width = `${share * 100}%`;
  meter.querySelector("[data-label]")!.textContent = password ? label : "";
  const checks = passwordChecks(password);
  for (const li of meter.querySelectorAll<HTMLElement>("[data-check]")) {
    const ok = checks[li.dataset.check as PasswordCheck];
    li.toggleAttribute("data-ok", ok);
    li.querySelector("[data-state]")!.textContent = ok ? " (done)" : " (missing)";
  }
}

/**
 * The signup page's script (signup.astro, ADR 122): one step at a time, with the progress and Back;
 * fields checked with core's rules and messages, errors that leave as soon as their field is valid,
 * the code boxes with their resend countdown, the strength meter, and the account created at the
 * end. The signup in progress is picked up again after a reload or a return from Google.
 */
import { AUTH_TEXT, emailError, newPasswordErrors } from "#core/auth-rules.ts";
import type { PlanChoice } from "#core/schemas/auth.ts";
import { LIMITS } from "#core/limits.ts";
import { installErrorScreen } from "../site/error-screen.ts";
import { AuthFailure, auth, call, CLAIMED_USERNAME_KEY, failureMessage } from "./api.ts";
import { alerts, byId, fieldErrors, googleLink, otpBoxes, passwordMeter, passwordToggles, setBusy, setFieldError } from "./page.ts";

installErrorScreen();

type Step = "claim" | "email" | "otp" | "password" | "plan";
const PROGRESS: Record<Exclude<Step, "claim">, number> = { email: 25, otp: 50, password: 75, plan: 100 };

interface AttemptState {
  username: string | null;
  email: string | null;
  emailVerified: boolean;
  provider: "google" | null;
  resendInMs: number;
}

let username = "";
let provider: "google" | null = null;
let emailVerified = false;
let resendAt = 0;
let step: Step | null = null;

const claim = byId("step-claim");
const claimForm = claim.querySelector<HTMLFormElement>("form.claim-box")!;
const claimInput = claimForm.querySelector("input")!;
const claimButton = claimForm.querySelector("button")!;
const wizard = byId("signup-wizard");
const forms = {
  email: byId<HTMLFormElement>("step-email"),
  otp: byId<HTMLFormElement>("step-otp"),
  password: byId<HTMLFormElement>("step-password"),
  plan: byId<HTMLFormElement>("step-plan"),
};
const every = [claim, ...Object.values(forms)];
const submitOf = (form: HTMLFormElement) => form.querySelector<HTMLButtonElement>("button[type=submit]")!;

const emailInput = byId<HTMLInputElement>("signup-email");
const password = byId<HTMLInputElement>("signup-password");
const confirm = byId<HTMLInputElement>("signup-confirm");
const terms = byId<HTMLInputElement>("signup-terms");
const resend = byId<HTMLButtonElement>("signup-resend");
const emailErrors = fieldErrors(forms.email, (): Record<string, string> => {
  const m = emailError(emailInput.value);
  return m ? { email: m } : {};
});
const passwordErrors = fieldErrors(forms.password, () => newPasswordErrors(password.value, confirm.value));
const google = googleLink(byId("signup-google"), {});

function rememberUsername(name: string) {
  try {
    sessionStorage.setItem(CLAIMED_USERNAME_KEY, name);
  } catch {
    /* storage may be off; the URL still carries the name */
  }
  const url = new URL(location.href);
  url.searchParams.set("username", name);
  history.replaceState(null, "", url);
}

function storedUsername(): string | null {
  try {
    return sessionStorage.getItem(CLAIMED_USERNAME_KEY);
  } catch {
    return null;
  }
}

/** Shows one step, with the alerts and field errors of every step cleared. */
function go(next: Step) {
  const first = step === null;
  step = next;
  byId("signup-loading").hidden = true;
  for (const el of every) alerts(el).clear();
  emailErrors.clear();
  passwordErrors.clear();
  setFieldError(terms, null);
  claim.hidden = next !== "claim";
  wizard.hidden = next === "claim";
  // Named only while shown: the hidden heading would otherwise read as a second "@name is available".
  for (const el of wizard.querySelectorAll("[data-username]")) el.textContent = next === "claim" ? "" : username;
  for (const [key, form] of Object.entries(forms)) form.hidden = key !== next;
  if (next === "claim") {
    byId("claim-subtitle").textContent =
      provider === "google" ? `Signing up with Google as ${emailInput.value}. Pick your username to continue.` : "Claim your username to get started.";
    claimInput.value = username;
    // Checked again, so the name shows as available (or not) as it is now.
    if (username) claimInput.dispatchEvent(new Event("input"));
    if (!first) claimInput.focus();
    return;
  }
  const progress = byId("signup-progress");
  const value = PROGRESS[next];
  progress.setAttribute("aria-valuenow", String(value));
  progress.setAttribute("aria-valuetext", `${value}%`);
  progress.querySelector<HTMLElement>("div")!.style.width = `${value}%`;
  byId("signup-step-number").textContent = String(Object.keys(PROGRESS).indexOf(next) + 1);
  google({ username });
  if (next === "email") emailInput.focus();
  if (next === "otp") showOtp();
  if (next === "password") password.focus();
}

function adopt(state: AttemptState) {
  if (state.username) username = state.username;
  if (state.email) emailInput.value = state.email;
  emailVerified = state.emailVerified;
  provider = state.provider;
  resendAt = Date.now() + state.resendInMs;
}

function restart(message: string) {
  provider = null;
  emailVerified = false;
  code.clear();
  go("claim");
  alerts(claim).show("error", message);
}

// ---------------------------------------------------------------------------------------------
// Username

claimForm.addEventListener("claim", (e) => {
  e.preventDefault();
  void claimed((e as CustomEvent<string>).detail);
});

async function claimed(name: string) {
  alerts(claim).clear();
  if (provider === "google") {
    claimButton.disabled = true;
    try {
      adopt(await call(auth.signup.username.$post({ json: { username: name } }), AUTH_TEXT.signUpFailed));
      go("plan");
    } catch (err) {
      if (err instanceof AuthFailure && err.status === 410) return restart(err.message);
      claimForm.dispatchEvent(new CustomEvent("claim-error", { detail: failureMessage(err, AUTH_TEXT.signUpFailed) }));
    }
    return;
  }
  username = name;
  rememberUsername(name);
  go("email");
}

function refuseName(message: string) {
  go("claim");
  claimForm.dispatchEvent(new CustomEvent("claim-error", { detail: message }));
}

// ---------------------------------------------------------------------------------------------
// E-mail

forms.email.addEventListener("submit", async (e) => {
  e.preventDefault();
  const problem = emailError(emailInput.value);
  if (problem) return emailErrors.show({ email: problem });
  emailErrors.clear();
  alerts(forms.email).clear();
  const button = submitOf(forms.email);
  setBusy(button, true, "Sending code...");
  try {
    const state = await call(auth.signup.start.$post({ json: { username, email: emailInput.value.trim().toLowerCase() } }), AUTH_TEXT.codeSendFailed);
    adopt(state);
    code.clear();
    go(state.emailVerified ? "password" : "otp");
  } catch (err) {
    if (err instanceof AuthFailure && err.fields.username) refuseName(err.fields.username);
    else if (err instanceof AuthFailure && err.fields.email) emailErrors.show({ email: err.fields.email });
    else alerts(forms.email).show("error", failureMessage(err, AUTH_TEXT.codeSendFailed));
  } finally {
    setBusy(button, false);
  }
});

// ---------------------------------------------------------------------------------------------
// The e-mailed code

const verifyButton = submitOf(forms.otp);
let verifying = false;
const code = otpBoxes(byId("signup-code"), () => syncVerify(), (c) => void verify(c));
let countdown: ReturnType<typeof setInterval> | undefined;

function syncVerify() {
  if (verifying) return;
  verifyButton.disabled = !emailVerified && code.value.length < LIMITS.OTP_LENGTH;
}

function tick() {
  const secondsLeft = Math.max(0, Math.ceil((resendAt - Date.now()) / 1000));
  resend.disabled = secondsLeft > 0;
  resend.textContent = secondsLeft > 0 ? `Resend code in ${secondsLeft}s` : "Resend code";
  if (secondsLeft === 0 || step !== "otp") {
    clearInterval(countdown);
    countdown = undefined;
  }
}

function showOtp() {
  const email = emailInput.value.trim().toLowerCase();
  const verified = forms.otp.querySelector<HTMLElement>("[data-verified]")!;
  verified.hidden = !emailVerified;
  verified.textContent = emailVerified ? `Your email address ${email} is verified.` : "";
  forms.otp.querySelector<HTMLElement>("[data-unverified]")!.hidden = emailVerified;
  forms.otp.querySelector("[data-email]")!.textContent = email;
  resend.hidden = emailVerified;
  verifyButton.dataset.label = emailVerified ? "Continue" : "Verify";
  verifyButton.textContent = verifyButton.dataset.label;
  code.invalid(false);
  syncVerify();
  clearInterval(countdown);
  countdown = setInterval(tick, 1000);
  tick();
  if (emailVerified) verifyButton.focus();
  else code.focus();
}

async function verify(value: string) {
  if (verifying || value.length !== LIMITS.OTP_LENGTH) return;
  verifying = true;
  setBusy(verifyButton, true, "Verifying...");
  code.disabled(true);
  alerts(forms.otp).clear();
  try {
    adopt(await call(auth.signup.verify.$post({ json: { code: value } }), AUTH_TEXT.codeInvalid));
    verifying = false;
    setBusy(verifyButton, false);
    code.disabled(false);
    go("password");
  } catch (err) {
    verifying = false;
    setBusy(verifyButton, false);
    code.disabled(false);
    if (err instanceof AuthFailure && err.status === 410) return restart(err.message);
    alerts(forms.otp).show("error", failureMessage(err, AUTH_TEXT.codeInvalid));
    code.invalid(true);
    code.clear();
    code.focus();
  }
}

forms.otp.addEventListener("submit", (e) => {
  e.preventDefault();
  if (emailVerified) go("password");
  else void verify(code.value);
});

resend.addEventListener("click", async () => {
  const shown = alerts(forms.otp);
  shown.clear();
  try {
    adopt(await call(auth.signup.resend.$post(), AUTH_TEXT.codeResendFailed));
    code.clear();
    shown.show("success", `We sent a new code to ${emailInput.value.trim().toLowerCase()}.`);
    clearInterval(countdown);
    countdown = setInterval(tick, 1000);
    tick();
  } catch (err) {
    if (err instanceof AuthFailure && err.status === 410) return restart(err.message);
    shown.show("error", failureMessage(err, AUTH_TEXT.codeResendFailed));
  }
});

// ---------------------------------------------------------------------------------------------
// Password

const meter = byId("signup-meter");
password.addEventListener("input", () => passwordMeter(meter, password.value));
passwordMeter(meter, password.value);

forms.password.addEventListener("submit", (e) => {
  e.preventDefault();
  const problems = newPasswordErrors(password.value, confirm.value);
  if (Object.keys(problems).length) return passwordErrors.show(problems);
  go("plan");
});

// ---------------------------------------------------------------------------------------------
// Plan and terms

terms.addEventListener("change", () => setFieldError(terms, null));

forms.plan.addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!terms.checked) return setFieldError(terms, AUTH_TEXT.termsRequired);
  setFieldError(terms, null);
  alerts(forms.plan).clear();
  const plan: PlanChoice = new FormData(forms.plan).get("plan") === "plus" ? "plus" : "lite";
  const button = submitOf(forms.plan);
  setBusy(button, true, "Creating your account...");
  try {
    const body =
      provider === "google"
        ? { plan, agreedToTerms: true as const }
        : { password: password.value, confirmPassword: confirm.value, plan, agreedToTerms: true as const };
    const done = await call(auth.signup.complete.$post({ json: body }), AUTH_TEXT.signUpFailed);
    try {
      sessionStorage.removeItem(CLAIMED_USERNAME_KEY);
    } catch {
      /* nothing to clean */
    }
    location.assign(done.redirect);
  } catch (err) {
    setBusy(button, false);
    if (err instanceof AuthFailure && err.status === 410) return restart(err.message);
    if (err instanceof AuthFailure && (err.fields.password || err.fields.confirmPassword)) {
      go("password");
      return passwordErrors.show(err.fields);
    }
    if (err instanceof AuthFailure && err.fields.username) return refuseName(err.fields.username);
    alerts(forms.plan).show("error", failureMessage(err, AUTH_TEXT.signUpFailed));
  }
});

// ---------------------------------------------------------------------------------------------
// Back, and the controls' names

for (const back of wizard.querySelectorAll<HTMLButtonElement>("button[data-back]")) {
  back.addEventListener("click", () => {
    const to = back.dataset.back as Step;
    go(to === "password" && provider === "google" ? "claim" : to);
  });
}
passwordToggles(wizard);

// ---------------------------------------------------------------------------------------------
// Where to begin: the signup in progress (after a reload or a return from Google), or the username
// from the claim box (query), from this tab's storage, or nothing (the claim form).

void (async () => {
  const wanted = new URLSearchParams(location.search).get("username")?.trim() || storedUsername();
  let attempt: AttemptState | null = null;
  try {
    const session = await auth.session.$get().then((r) => r.json());
    if (session.signedIn) return location.replace("/dashboard/links");
    attempt = (await call(auth.signup.$get(), AUTH_TEXT.signUpFailed)).attempt;
  } catch {
    attempt = null;
  }
  if (attempt?.provider === "google") {
    adopt(attempt);
    return go(attempt.username ? "plan" : "claim");
  }
  if (attempt?.username && (!wanted || wanted.toLowerCase() === attempt.username)) {
    adopt(attempt);
    rememberUsername(attempt.username);
    return go(attempt.emailVerified ? "password" : attempt.email ? "otp" : "email");
  }
  if (!wanted) return go("claim");
  username = wanted;
  try {
    const res = await fetch(`/api/auth/username-availability?username=${encodeURIComponent(wanted)}`);
    const body = (await res.json()) as { available?: boolean; username?: string };
    if (res.ok && body.available && body.username) {
      username = body.username;
      rememberUsername(body.username);
      return go("email");
    }
    // A name a signup in progress holds (ADR 141) stays on the claim step, which says so and lets its
    // owner continue.
  } catch {
    /* the claim form checks again and says what is wrong */
  }
  go("claim");
})();

/**
 * The sign-in page's script (login.astro, ADR 122): checks the form with core's rules and messages,
 * signs in, asks for the second factor when two-factor is on, offers Resend Verification to an
 * unverified address, and goes on to the dashboard page the owner was sent away from.
 */
import { AUTH_TEXT, loginErrors, safeNextPath, sanitizeEmailInput } from "#core/auth-rules.ts";
import { installErrorScreen } from "../site/error-screen.ts";
import { AuthFailure, auth, call, failureMessage } from "./api.ts";
import { alertBox, alerts, byId, fieldErrors, googleLink, otpBoxes, passwordToggles, ready, setBusy } from "./page.ts";

installErrorScreen();

const form = byId<HTMLFormElement>("login-form");
const email = byId<HTMLInputElement>("login-email");
const password = byId<HTMLInputElement>("login-password");
const remember = byId<HTMLInputElement>("login-remember");
const signIn = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
const formAlerts = alerts(form);
const errors = fieldErrors(form, () => loginErrors(email.value, password.value));

const params = new URLSearchParams(location.search);
const next = safeNextPath(params.get("next"));
if (params.get("error") === "provider") formAlerts.show("error", AUTH_TEXT.providerFailed);

const google = googleLink(byId("login-google"), { next, remember: false });
remember.addEventListener("change", () => google({ next, remember: remember.checked }));

passwordToggles(form);
ready(form);

// Already signed in: straight on.
void auth.session
  .$get()
  .then((r) => r.json())
  .then((s) => {
    if (s.signedIn) location.replace(next);
  })
  .catch(() => undefined);

function signedIn() {
  form.hidden = true;
  twoFactor.hidden = true;
  const done = byId("login-done");
  done.hidden = false;
  done.querySelector("[role=status]")!.textContent = AUTH_TEXT.signedIn;
  location.assign(next);
}

async function resendVerification(address: string, holder: HTMLElement) {
  holder.replaceChildren();
  try {
    const r = await call(auth["resend-verification"].$post({ json: { email: address } }), AUTH_TEXT.verificationFailed);
    holder.append(alertBox("success", r.message));
  } catch (err) {
    holder.append(alertBox("error", failureMessage(err, AUTH_TEXT.verificationFailed)));
  }
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  formAlerts.clear();
  const problems = loginErrors(email.value, password.value);
  if (Object.keys(problems).length) return errors.show(problems);
  errors.clear();
  const address = sanitizeEmailInput(email.value).toLowerCase();
  setBusy(signIn, true, "Signing in...");
  try {
    const result = await call(auth.login.$post({ json: { email: address, password: password.value, rememberMe: remember.checked } }), AUTH_TEXT.signInFailed);
    if (result.status === "two_factor") {
      setBusy(signIn, false);
      openTwoFactor();
    } else signedIn();
  } catch (err) {
    setBusy(signIn, false);
    if (err instanceof AuthFailure && err.details.reason === "email_unverified") {
      const box = formAlerts.show("error", AUTH_TEXT.unverifiedText, AUTH_TEXT.unverifiedTitle);
      const resend = document.createElement("button");
      resend.type = "button";
      resend.className = "mt-2 font-semibold underline underline-offset-4";
      resend.textContent = "Resend Verification";
      const answer = document.createElement("div");
      answer.className = "space-y-2";
      resend.addEventListener("click", () => void resendVerification(address, answer));
      box.append(resend);
      box.after(answer);
    } else formAlerts.show("error", failureMessage(err, AUTH_TEXT.signInFailed));
    if (err instanceof AuthFailure && Object.keys(err.fields).length) errors.show(err.fields);
  }
});

// ---------------------------------------------------------------------------------------------
// The second step: a code from the authenticator app, or one of the backup codes.

const twoFactor = byId<HTMLFormElement>("two-factor-form");
const verify = twoFactor.querySelector<HTMLButtonElement>("button[type=submit]")!;
const backup = byId<HTMLInputElement>("backup-code");
const switchMode = byId<HTMLButtonElement>("two-factor-switch");
const twoFactorAlerts = alerts(twoFactor);
let mode: "totp" | "backup" = "totp";
let verifying = false;
const otp = otpBoxes(byId("two-factor-code"), () => syncVerify(), (code) => void submitCode(code));

function syncVerify() {
  if (verifying) return;
  verify.disabled = mode === "totp" ? otp.value.length < 6 : backup.value.trim().length === 0;
}
backup.addEventListener("input", syncVerify);

function setMode(m: typeof mode) {
  mode = m;
  for (const el of twoFactor.querySelectorAll<HTMLElement>("[data-mode]")) el.hidden = el.dataset.mode !== m;
  switchMode.textContent = m === "totp" ? "Use a backup code instead" : "Use your authenticator app instead";
  otp.clear();
  backup.value = "";
  twoFactorAlerts.clear();
  otp.invalid(false);
  syncVerify();
  if (m === "totp") otp.focus();
  else backup.focus();
}

function openTwoFactor() {
  form.hidden = true;
  twoFactor.hidden = false;
  setMode("totp");
}

async function submitCode(code: string) {
  if (verifying) return;
  verifying = true;
  setBusy(verify, true, "Verifying...");
  otp.disabled(true);
  twoFactorAlerts.clear();
  try {
    await call(auth.login["two-factor"].$post({ json: { code } }), AUTH_TEXT.twoFactorVerifyFailed);
    signedIn();
  } catch (err) {
    twoFactorAlerts.show("error", failureMessage(err, AUTH_TEXT.twoFactorVerifyFailed));
    verifying = false;
    setBusy(verify, false);
    otp.disabled(false);
    otp.invalid(true);
    otp.clear();
    backup.value = "";
    syncVerify();
    if (mode === "totp") otp.focus();
    else backup.focus();
  }
}

twoFactor.addEventListener("submit", (e) => {
  e.preventDefault();
  void submitCode(mode === "totp" ? otp.value : backup.value);
});
switchMode.addEventListener("click", () => setMode(mode === "totp" ? "backup" : "totp"));
byId("two-factor-cancel").addEventListener("click", () => {
  twoFactor.hidden = true;
  form.hidden = false;
  email.focus();
});

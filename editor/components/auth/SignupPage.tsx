/**
 * /auth/signup (spec section 2, Signup; section 4, Signup wizard). Without a username it first asks
 * for one ('Create Your Plinth'); then four steps with 25/50/75/100 progress and Back: e-mail, the
 * e-mailed code, password, plan. The server holds the username from the e-mail step on and creates
 * the account only after the last one. A signup begun with Google has its address already: it picks
 * a username and goes straight to the plan.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { AUTH_TEXT, EmailSchema, NewPasswordFormSchema, PASSWORD_SPECIALS, type PlanChoice } from "#core/schemas/auth.ts";
import { LIMITS } from "#core/limits.ts";
import { PLAN_NAMES } from "#core/plans.ts";
import { PLUS_PRICE_LABEL } from "#core/schemas/billing.ts";
import UsernameClaim from "../UsernameClaim.tsx";
import { AuthFailure, auth, call, CLAIMED_USERNAME_KEY, failureMessage } from "./api.ts";
import { Alert, Form, PasswordField, PrimaryButton, SecondaryButton, TextField } from "./fields.tsx";
import GoogleButton from "./GoogleButton.tsx";
import OtpInput from "./OtpInput.tsx";
import PasswordStrength from "./PasswordStrength.tsx";
import ErrorBoundary from "../ErrorBoundary.tsx";
import { clearFixed, fieldsOf, messagesOf } from "../field-errors.ts";

type Step = "loading" | "claim" | "email" | "otp" | "password" | "plan";
const PROGRESS: Partial<Record<Step, number>> = { email: 25, otp: 50, password: 75, plan: 100 };
const STEP_NUMBER: Partial<Record<Step, number>> = { email: 1, otp: 2, password: 3, plan: 4 };

interface AttemptState {
  username: string | null;
  email: string | null;
  emailVerified: boolean;
  provider: "google" | null;
  resendInMs: number;
}

function rememberUsername(name: string) {
  try {
    sessionStorage.setItem(CLAIMED_USERNAME_KEY, name);
  } catch {
    /* storage may be off; the URL still carries the name */
  }
  const url = new URL(window.location.href);
  url.searchParams.set("username", name);
  window.history.replaceState(null, "", url);
}

function storedUsername(): string | null {
  try {
    return sessionStorage.getItem(CLAIMED_USERNAME_KEY);
  } catch {
    return null;
  }
}

function Heading({ title, subtitle }: { title: ReactNode; subtitle: string }) {
  return (
    <div className="text-center">
      <h1 className="text-2xl font-bold">
        {title}
      </h1>
      <p className="mt-1 text-slate-700">{subtitle}</p>
    </div>
  );
}

function Progress({ step }: { step: Step }) {
  const value = PROGRESS[step];
  if (value === undefined) return null;
  return (
    <div className="mb-6">
      <p className="mb-1 text-sm text-slate-600">Step {STEP_NUMBER[step]} of 4</p>
      <div role="progressbar" aria-label="Signup progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={value} aria-valuetext={`${value}%`} className="h-2 overflow-hidden rounded-full bg-slate-200">
        <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

function BackButton({ onClick }: { onClick(): void }) {
  return (
    <SecondaryButton onClick={onClick} className="w-full sm:w-auto">
      Back
    </SecondaryButton>
  );
}

function SignupForm() {
  const [step, setStep] = useState<Step>("loading");
  const [username, setUsername] = useState("");
  const [claimError, setClaimError] = useState<string | null>(null);
  const [provider, setProvider] = useState<"google" | null>(null);
  const [email, setEmail] = useState("");
  const [emailVerified, setEmailVerified] = useState(false);
  const [resendAt, setResendAt] = useState(0);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [plan, setPlan] = useState<PlanChoice>("lite");
  const [terms, setTerms] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  function go(next: Step) {
    setFields({});
    setError(null);
    setNotice(null);
    setStep(next);
  }

  function adopt(state: AttemptState) {
    if (state.username) setUsername(state.username);
    if (state.email) setEmail(state.email);
    setEmailVerified(state.emailVerified);
    setProvider(state.provider);
    // The countdown's clock restarts with the deadline: a `now` from before the answer would show a
    // wait the server no longer asks for, and with nothing left to count nothing would clear it.
    const at = Date.now();
    setNow(at);
    setResendAt(at + state.resendInMs);
  }

  // Where to begin: the signup in progress (after a reload or a return from Google), or the username
  // from the claim box (query), from this tab's storage, or nothing (the claim form).
  useEffect(() => {
    const wanted = new URLSearchParams(window.location.search).get("username")?.trim() || storedUsername();
    void (async () => {
      let attempt: AttemptState | null = null;
      try {
        const session = await auth.session.$get().then((r) => r.json());
        if (session.signedIn) return window.location.replace("/dashboard/links");
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
      setUsername(wanted);
      try {
        const res = await fetch(`/api/auth/username-availability?username=${encodeURIComponent(wanted)}`);
        const body = (await res.json()) as { available?: boolean; username?: string; message?: string };
        if (res.ok && body.available && body.username) {
          setUsername(body.username);
          rememberUsername(body.username);
          return go("email");
        }
      } catch {
        /* the claim form checks again and says what is wrong */
      }
      go("claim");
    })();
  }, []);

  // The resend countdown.
  useEffect(() => {
    if (step !== "otp" || resendAt <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [step, resendAt]);

  async function claimed(name: string) {
    setClaimError(null);
    if (provider === "google") {
      setBusy(true);
      try {
        adopt(await call(auth.signup.username.$post({ json: { username: name } }), AUTH_TEXT.signUpFailed));
        go("plan");
      } catch (err) {
        if (err instanceof AuthFailure && err.status === 410) return restart(err.message);
        setClaimError(failureMessage(err, AUTH_TEXT.signUpFailed));
      } finally {
        setBusy(false);
      }
      return;
    }
    setUsername(name);
    rememberUsername(name);
    go("email");
  }

  function restart(message: string) {
    setProvider(null);
    setEmailVerified(false);
    setCode("");
    go("claim");
    setError(message);
  }

  async function sendEmail(e: FormEvent) {
    e.preventDefault();
    const parsed = EmailSchema.safeParse(email);
    if (!parsed.success) return setFields({ email: parsed.error.issues[0]!.message });
    setFields({});
    setError(null);
    setBusy(true);
    try {
      const state = await call(auth.signup.start.$post({ json: { username, email: parsed.data } }), AUTH_TEXT.codeSendFailed);
      adopt(state);
      setCode("");
      go(state.emailVerified ? "password" : "otp");
    } catch (err) {
      if (err instanceof AuthFailure && err.fields.username) {
        setClaimError(err.fields.username);
        go("claim");
      } else if (err instanceof AuthFailure && err.fields.email) setFields({ email: err.fields.email });
      else setError(failureMessage(err, AUTH_TEXT.codeSendFailed));
    } finally {
      setBusy(false);
    }
  }

  async function verify(value = code) {
    if (busy || value.length !== LIMITS.OTP_LENGTH) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      adopt(await call(auth.signup.verify.$post({ json: { code: value } }), AUTH_TEXT.codeInvalid));
      go("password");
    } catch (err) {
      if (err instanceof AuthFailure && err.status === 410) return restart(err.message);
      setError(failureMessage(err, AUTH_TEXT.codeInvalid));
      setCode("");
    } finally {
      setBusy(false);
    }
  }

  async function resendCode() {
    setError(null);
    setNotice(null);
    try {
      adopt(await call(auth.signup.resend.$post(), AUTH_TEXT.codeResendFailed));
      setCode("");
      setNotice(`We sent a new code to ${email}.`);
    } catch (err) {
      if (err instanceof AuthFailure && err.status === 410) return restart(err.message);
      setError(failureMessage(err, AUTH_TEXT.codeResendFailed));
    }
  }

  function choosePassword(e: FormEvent) {
    e.preventDefault();
    const parsed = NewPasswordFormSchema.safeParse({ password, confirmPassword });
    if (!parsed.success) {
      return setFields(fieldsOf(parsed.error.issues));
    }
    go("plan");
  }

  async function finish(e: FormEvent) {
    e.preventDefault();
    if (!terms) return setFields({ agreedToTerms: AUTH_TEXT.termsRequired });
    setFields({});
    setError(null);
    setBusy(true);
    try {
      const body = provider === "google" ? { plan, agreedToTerms: true as const } : { password, confirmPassword, plan, agreedToTerms: true as const };
      const done = await call(auth.signup.complete.$post({ json: body }), AUTH_TEXT.signUpFailed);
      try {
        sessionStorage.removeItem(CLAIMED_USERNAME_KEY);
      } catch {
        /* nothing to clean */
      }
      window.location.assign(done.redirect);
    } catch (err) {
      setBusy(false);
      if (err instanceof AuthFailure && err.status === 410) return restart(err.message);
      if (err instanceof AuthFailure && (err.fields.password || err.fields.confirmPassword)) {
        go("password");
        setFields(err.fields);
        return;
      }
      if (err instanceof AuthFailure && err.fields.username) {
        setClaimError(err.fields.username);
        return go("claim");
      }
      setError(failureMessage(err, AUTH_TEXT.signUpFailed));
    }
  }

  const alerts = (
    <>
      {error ? <Alert>{error}</Alert> : null}
      {notice ? <Alert kind="success">{notice}</Alert> : null}
    </>
  );

  if (step === "loading") {
    return (
      <p role="status" className="text-center text-slate-600">
        Loading...
      </p>
    );
  }

  if (step === "claim") {
    return (
      <div className="space-y-5">
        <Heading
          title="Create Your Plinth"
          subtitle={provider === "google" ? `Signing up with Google as ${email}. Pick your username to continue.` : "Claim your username to get started."}
        />
        {alerts}
        <UsernameClaim buttonLabel="Continue" initialValue={username} id="signup-username" onClaim={(name) => void claimed(name)} error={claimError} busy={busy} />
        <p className="text-center text-sm text-slate-700">
          <a href="/auth/login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
            Already have an account? Sign in
          </a>
        </p>
      </div>
    );
  }

  const secondsLeft = Math.max(0, Math.ceil((resendAt - now) / 1000));

  return (
    <div>
      <Progress step={step} />
      {step === "email" ? (
        <Form key="email" onSubmit={sendEmail} className="space-y-4">
          <Heading title={`@${username} is available`} subtitle="Claim it now for free!" />
          {alerts}
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(e) => {
              const checked = EmailSchema.safeParse(e.target.value);
              setEmail(e.target.value);
              setFields((f) => clearFixed(f, checked.success ? {} : { email: checked.error.issues[0]!.message }));
            }}
            error={fields.email}
            maxLength={LIMITS.EMAIL_MAX + 20}
          />
          <PrimaryButton busy={busy}>{busy ? "Sending code..." : "Continue"}</PrimaryButton>
          <GoogleButton username={username} />
          <div className="flex flex-wrap items-center justify-between gap-3">
            <BackButton onClick={() => go("claim")} />
            <a href="/auth/login" className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
              Already have an account? Sign in
            </a>
          </div>
        </Form>
      ) : null}

      {step === "otp" ? (
        <Form
          key="otp"
          onSubmit={(e) => {
            e.preventDefault();
            if (emailVerified) go("password");
            else void verify();
          }}
          noValidate
          className="space-y-4"
        >
          <Heading title="Check your email" subtitle="Enter verification code" />
          {alerts}
          {emailVerified ? (
            <Alert kind="success">Your email address {email} is verified.</Alert>
          ) : (
            <>
              <p id="otp-help" className="text-center text-sm text-slate-700">
                We sent a 6-digit code to <strong>{email}</strong>. It expires in 10 minutes.
              </p>
              <OtpInput value={code} onChange={setCode} onComplete={(c) => void verify(c)} disabled={busy} invalid={!!error} describedBy="otp-help" />
            </>
          )}
          <PrimaryButton busy={busy} disabled={!emailVerified && code.length < LIMITS.OTP_LENGTH}>
            {emailVerified ? "Continue" : busy ? "Verifying..." : "Verify"}
          </PrimaryButton>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <BackButton onClick={() => go("email")} />
            {emailVerified ? null : (
              <button type="button" onClick={() => void resendCode()} disabled={secondsLeft > 0} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline disabled:cursor-not-allowed disabled:text-slate-500 disabled:no-underline">
                {secondsLeft > 0 ? `Resend code in ${secondsLeft}s` : "Resend code"}
              </button>
            )}
          </div>
        </Form>
      ) : null}

      {step === "password" ? (
        <Form key="password" onSubmit={choosePassword} className="space-y-4">
          <Heading title="Create your password" subtitle="Choose a strong password for your account" />
          {alerts}
          <PasswordField
            label="Password"
            autoComplete="new-password"
            autoFocus
            value={password}
            maxLength={LIMITS.PASSWORD_MAX}
            onChange={(e) => {
              setPassword(e.target.value);
              setFields((f) => clearFixed(f, messagesOf(NewPasswordFormSchema, { password: e.target.value, confirmPassword })));
            }}
            error={fields.password}
            hint={<PasswordStrength password={password} />}
          />
          <p className="text-xs text-slate-600">
            At least 12 characters and 4 of the 5 checks. Special characters: {PASSWORD_SPECIALS}
          </p>
          <PasswordField
            label="Confirm password"
            autoComplete="new-password"
            value={confirmPassword}
            maxLength={LIMITS.PASSWORD_MAX}
            onChange={(e) => {
              setConfirmPassword(e.target.value);
              setFields((f) => clearFixed(f, messagesOf(NewPasswordFormSchema, { password, confirmPassword: e.target.value })));
            }}
            error={fields.confirmPassword}
          />
          <PrimaryButton>Continue</PrimaryButton>
          <BackButton onClick={() => go("otp")} />
        </Form>
      ) : null}

      {step === "plan" ? (
        <Form key="plan" onSubmit={finish} className="space-y-4">
          <Heading title="Choose your plan" subtitle="Start with our free trial or go Plus" />
          {alerts}
          <fieldset>
            <legend className="sr-only">Plan</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {(
                [
                  ["lite", "Free forever", ["Up to 7 links", "Up to 4 social icons", "Basic themes and analytics", "7-day Plus trial included"]],
                  ["plus", PLUS_PRICE_LABEL, ["Unlimited links and social icons", "Premium themes and fonts", "Scheduling, lead magnets, contact cards", "Checkout follows; cancel any time"]],
                ] as const
              ).map(([key, price, features]) => (
                <label
                  key={key}
                  className={`block cursor-pointer rounded-lg border-2 p-4 focus-within:outline focus-within:outline-3 focus-within:outline-brand-600 ${plan === key ? "border-brand-600 bg-brand-50" : "border-slate-300"}`}
                >
                  <input type="radio" name="plan" value={key} checked={plan === key} onChange={() => setPlan(key)} className="sr-only" />
                  <span className="block font-semibold">{PLAN_NAMES[key]}</span>
                  <span className="block text-sm text-slate-700">{price}</span>
                  <ul className="mt-2 list-disc pl-5 text-sm text-slate-700">
                    {features.map((f) => (
                      <li key={f}>{f}</li>
                    ))}
                  </ul>
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                checked={terms}
                onChange={(e) => {
                  setTerms(e.target.checked);
                  setFields({});
                }}
                aria-invalid={fields.agreedToTerms ? true : undefined}
                aria-describedby={fields.agreedToTerms ? "terms-error" : undefined}
                className="mt-0.5 size-4"
              />
              <span>
                I agree to the{" "}
                <a href="/terms" target="_blank" rel="noopener" className="font-medium text-brand-700 underline underline-offset-4">
                  Terms of Service
                </a>{" "}
                and{" "}
                <a href="/privacy" target="_blank" rel="noopener" className="font-medium text-brand-700 underline underline-offset-4">
                  Privacy Policy
                </a>
              </span>
            </label>
            {fields.agreedToTerms ? (
              <p id="terms-error" className="mt-1 text-sm text-red-700">
                {fields.agreedToTerms}
              </p>
            ) : null}
          </div>
          <PrimaryButton busy={busy}>{busy ? "Creating your account..." : "Create Account"}</PrimaryButton>
          <BackButton onClick={() => go(provider === "google" ? "claim" : "password")} />
        </Form>
      ) : null}
    </div>
  );
}

export default function SignupPage() {
  return (
    <ErrorBoundary>
      <SignupForm />
    </ErrorBoundary>
  );
}

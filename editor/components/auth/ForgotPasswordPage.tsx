/** /auth/forgot-password: e-mails a single-use reset link; the same answer for any address. */
import { useState, type FormEvent } from "react";
import { AUTH_TEXT, EmailSchema } from "#core/schemas/auth.ts";
import { LIMITS } from "#core/limits.ts";
import { auth, call, failureMessage } from "./api.ts";
import { Alert, Form, PrimaryButton, TextField } from "./fields.tsx";
import ErrorBoundary from "../ErrorBoundary.tsx";

function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = EmailSchema.safeParse(email);
    if (!parsed.success) return setFieldError(parsed.error.issues[0]!.message);
    setFieldError(null);
    setError(null);
    setBusy(true);
    try {
      const r = await call(auth["forgot-password"].$post({ json: { email: parsed.data } }), AUTH_TEXT.resetFailed);
      setSent(`${r.message} If an account exists for ${parsed.data}, you'll get a link to choose a new password. It works once and expires in 1 hour.`);
    } catch (err) {
      setError(failureMessage(err, AUTH_TEXT.resetFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form onSubmit={submit} className="space-y-4">
      <div className="text-center">
        <h1 className="text-2xl font-bold">Reset your password</h1>
        <p className="mt-1 text-slate-700">Enter your email address and we'll send you a link to reset your password.</p>
      </div>
      {error ? <Alert>{error}</Alert> : null}
      {sent ? <Alert kind="success">{sent}</Alert> : null}
      <TextField label="Email" type="email" autoComplete="email" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError} maxLength={LIMITS.EMAIL_MAX + 20} />
      <PrimaryButton busy={busy}>{busy ? "Sending..." : "Send Reset Link"}</PrimaryButton>
      <p className="text-center text-sm">
        <a href="/auth/login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
          Back to sign in
        </a>
      </p>
    </Form>
  );
}

export default function ForgotPasswordPage() {
  return (
    <ErrorBoundary>
      <ForgotPasswordForm />
    </ErrorBoundary>
  );
}

/** The second sign-in step: a code from the authenticator app, or one of the backup codes. */
import { useState, type FormEvent } from "react";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { auth, call, failureMessage } from "./api.ts";
import { Alert, Form, PrimaryButton, TextField } from "./fields.tsx";
import OtpInput from "./OtpInput.tsx";

export default function TwoFactorStep({ onSignedIn, onCancel }: { onSignedIn(): void; onCancel?(): void }) {
  const [mode, setMode] = useState<"totp" | "backup">("totp");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(value = code) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await call(auth.login["two-factor"].$post({ json: { code: value } }), AUTH_TEXT.twoFactorVerifyFailed);
      onSignedIn();
    } catch (err) {
      setError(failureMessage(err, AUTH_TEXT.twoFactorVerifyFailed));
      setCode("");
      setBusy(false);
    }
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit();
  };

  return (
    <Form onSubmit={onSubmit} className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold">Two-factor authentication</h1>
        <p className="mt-1 text-slate-700">
          {mode === "totp" ? "Enter the 6-digit code from your authenticator app." : "Enter one of your backup codes. Each code works once."}
        </p>
      </div>
      {error ? <Alert>{error}</Alert> : null}
      {mode === "totp" ? (
        <OtpInput value={code} onChange={setCode} onComplete={(c) => void submit(c)} disabled={busy} invalid={!!error} label="Authentication code" />
      ) : (
        <TextField label="Backup code" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" autoFocus spellCheck={false} maxLength={32} placeholder="xxxxx-xxxxx" />
      )}
      <PrimaryButton busy={busy} disabled={mode === "totp" ? code.length < 6 : code.trim().length === 0}>
        {busy ? "Verifying..." : "Verify"}
      </PrimaryButton>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button
          type="button"
          className="font-medium text-brand-700 underline-offset-4 hover:underline"
          onClick={() => {
            setMode(mode === "totp" ? "backup" : "totp");
            setCode("");
            setError(null);
          }}
        >
          {mode === "totp" ? "Use a backup code instead" : "Use your authenticator app instead"}
        </button>
        {onCancel ? (
          <button type="button" className="text-slate-700 underline-offset-4 hover:underline" onClick={onCancel}>
            Use a different account
          </button>
        ) : null}
      </div>
    </Form>
  );
}

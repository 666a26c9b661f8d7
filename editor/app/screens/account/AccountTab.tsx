/**
 * Account tab: the e-mail and username, and deleting the account (password confirmation). With a
 * subscription, the dialog first says that deleting ends it now (ADR 049).
 */
import { startTransition, useEffect, useState, type FormEvent } from "react";
import { toast } from "../../toast.tsx";
import { AUTH_TEXT } from "#core/auth-rules.ts";
import { BILLING_MESSAGES } from "#core/billing.ts";
import { PasswordField, TextField } from "../../../components/auth/fields.tsx";
import { api, ApiFailure, setSigningOut, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { Modal } from "../../components/modal.tsx";

type Account = Awaited<ReturnType<typeof loadAccount>>;
const loadAccount = () => unwrap(api.auth.account.$get());

export default function AccountTab() {
  const [account, setAccount] = useState<Account | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    loadAccount().then((a) => startTransition(() => setAccount(a)), () => setFailed(true));
  }, []);

  async function remove(e: FormEvent) {
    e.preventDefault();
    if (!account) return;
    if (!confirm) return setError(account.hasPassword ? AUTH_TEXT.confirmPasswordRequired : AUTH_TEXT.deleteUsernameMismatch);
    setBusy(true);
    setError(null);
    const proof = account.hasPassword ? { password: confirm } : { confirmUsername: confirm };
    // From the moment the account may be gone, requests still in flight answer 401: they must not
    // send the owner to sign-in instead of to the home page.
    setSigningOut(true);
    try {
      // The warning below was on screen when the subscription is to end: say so.
      await unwrap(api.auth.account.$delete({ json: { ...proof, ...(account.subscriptionEndsOnDelete ? { endSubscription: true } : {}) } }));
      window.location.assign("/");
    } catch (err) {
      setSigningOut(false);
      setBusy(false);
      // A subscription began after this tab loaded: show the warning, and let the owner confirm again.
      if (err instanceof ApiFailure && err.status === 409 && err.details.subscription) setAccount({ ...account, subscriptionEndsOnDelete: true });
      setError(err instanceof ApiFailure ? err.message : "Failed to delete account");
      toast.error("Failed to delete account");
    }
  }

  if (failed) return <p role="alert" className="text-red-700">{AUTH_TEXT.accountLoadFailed}</p>;
  if (!account) return <p className="text-slate-600">Loading...</p>;

  return (
    <div className="max-w-xl space-y-8">
      <section aria-labelledby="account-details" className="space-y-3">
        <h2 id="account-details" className="text-lg font-semibold">
          Account details
        </h2>
        <dl className="grid gap-3 sm:grid-cols-[8rem_1fr]">
          <dt className="text-sm font-medium text-slate-600">Email</dt>
          <dd className="break-all">{account.email}</dd>
          <dt className="text-sm font-medium text-slate-600">Username</dt>
          <dd>@{account.username}</dd>
          <dt className="text-sm font-medium text-slate-600">Sign-in</dt>
          <dd>{[account.hasPassword ? "Password" : null, account.googleLinked ? "Google" : null].filter(Boolean).join(" and ")}</dd>
        </dl>
      </section>

      <section aria-labelledby="danger-zone" className="rounded-lg border border-red-200 p-4">
        <h2 id="danger-zone" className="text-lg font-semibold text-red-800">
          Delete account
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Deletes your account, your page at /{account.username}, your links, analytics and every file you uploaded. This cannot be undone.
          {account.subscriptionEndsOnDelete ? " Your Plinth Plus subscription ends at once." : null}
        </p>
        <Button variant="danger" className="mt-3" onClick={() => setOpen(true)}>
          Delete account
        </Button>
      </section>

      <Modal
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          setConfirm("");
          setError(null);
        }}
        dirty={confirm !== ""}
        title="Delete your account?"
        description={`This permanently deletes @${account.username}, your published page and all your data.${account.subscriptionEndsOnDelete ? ` ${BILLING_MESSAGES.deleteEndsSubscription}` : ""}`}
      >
        <form onSubmit={remove} noValidate className="space-y-4">
          {account.subscriptionEndsOnDelete ? (
            // The sentence itself is in the dialog's description, so it is read out when the dialog opens.
            <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm font-semibold text-slate-900">Your Plinth Plus subscription ends too.</p>
          ) : null}
          {account.hasPassword ? (
            <PasswordField label="Password" autoComplete="current-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={error} />
          ) : (
            <TextField label={`Type ${account.username} to confirm`} value={confirm} onChange={(e) => setConfirm(e.target.value)} error={error} autoComplete="off" />
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? "Deleting..." : "Delete my account"}
            </Button>
          </div>
        </form>
      </Modal>
    </div>
  );
}

/** Accounts: search, one account's state, signing it out everywhere (ADR 105), suspending and restoring it (ADR 109). */
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import type { AdminPerson } from "#api/services/admin-people.ts";
import { ADMIN_TEXTS } from "#core/admin.ts";
import { PLAN_NAMES } from "#core/plans.ts";
import { api, ApiFailure, unwrap } from "../app/api.ts";
import { Button } from "../app/components/button.tsx";
import { day, money, when } from "./format.ts";
import { Fact } from "./PayoutsScreen.tsx";
import { TextDialog } from "./TextDialog.tsx";
import { undoAction } from "./undo.ts";

type Found = { id: string; email: string; username: string; role: string; planType: "lite" | "plus"; createdAt: string };

export function PeopleScreen() {
  const [q, setQ] = useState("");
  const [found, setFound] = useState<Found[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  async function search(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setFound((await unwrap(api.admin.people.$get({ query: { q } }))).people as Found[]);
    } catch (err) {
      setFound(null);
      setError(err instanceof ApiFailure ? err.message : "The search failed. Please try again.");
    }
  }
  return (
    <section aria-labelledby="people-title">
      <h1 id="people-title" className="text-2xl font-bold">
        People
      </h1>
      <form role="search" onSubmit={search} className="mt-4 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={inputId} className="block text-sm font-medium">
            Search by e-mail or username
          </label>
          <input
            id={inputId}
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </div>
        <Button type="submit">Search</Button>
      </form>
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {found === null ? null : found.length === 0 ? (
        <p role="status" className="mt-4 text-slate-600">
          No account matches.
        </p>
      ) : (
        <ul aria-label="Accounts found" className="mt-4 divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
          {found.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
              <Link to={`/admin/people/${p.id}`} className="font-medium text-brand-700 underline">
                {p.email}
              </Link>
              <span className="text-sm text-slate-600">
                /{p.username} · {PLAN_NAMES[p.planType]}
                {p.role === "admin" ? " · admin" : ""} · joined {day(p.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function PersonScreen() {
  const { id = "" } = useParams();
  const [person, setPerson] = useState<AdminPerson | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [signingOut, setSigningOut] = useState(false);
  const [suspending, setSuspending] = useState<"suspend" | "restore" | null>(null);
  const load = useCallback(() => {
    unwrap(api.admin.people[":id"].$get({ param: { id } })).then(
      (r) => setPerson(r.person as AdminPerson),
      (e: unknown) => setError(e instanceof ApiFailure ? e.message : "The account could not be loaded."),
    );
  }, [id]);
  useEffect(load, [load]);
  if (error)
    return (
      <p role="alert" className="text-red-700">
        {error}
      </p>
    );
  if (!person)
    return (
      <p role="status" className="text-slate-600">
        Loading...
      </p>
    );
  const subscription = person.subscriptionStatus ? person.subscriptionStatus.replace("_plus", "").replace("_", " ") : "none";
  return (
    <section aria-labelledby="person-title">
      <p>
        <Link to="/admin/people" className="text-sm text-brand-700 underline">
          Back to People
        </Link>
      </p>
      <h1 id="person-title" className="mt-2 break-words text-2xl font-bold">
        {person.email}
      </h1>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2">
        {[
          ["Page", `/${person.username}`],
          ["Role", person.role],
          ["Plan", PLAN_NAMES[person.planType]],
          ["Subscription", subscription],
          ["Period ends", day(person.currentPeriodEnd)],
          ["Trial ends", day(person.trialEndsAt)],
          ["Created", when(person.createdAt)],
          ["Last sign-in", when(person.lastSignInAt)],
          ["Last publish", when(person.lastPublishedAt)],
          ["Two-factor", person.twoFactorOn ? "On" : "Off"],
          ["Rewards balance", money(person.rewardsBalanceCents)],
          ["Signed-in sessions", String(person.sessions)],
          ["Reports about the page", String(person.reports)],
          ["Account", person.suspendedAt ? `Suspended ${when(person.suspendedAt)}: ${person.suspensionReason}` : "Active"],
          ["Page status", person.pageSuspendedAt ? `Suspended ${when(person.pageSuspendedAt)}` : "Live"],
        ].map(([term, value]) => (
          <Fact key={term} term={term!}>
            {value}
          </Fact>
        ))}
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="danger" onClick={() => setSigningOut(true)}>
          Sign out everywhere
        </Button>
        {person.suspendedAt ? (
          <Button onClick={() => setSuspending("restore")}>Restore account</Button>
        ) : person.role === "admin" ? (
          // ADR 149: an admin is suspended only once the role is revoked from the shell.
          <p className="self-center text-sm text-slate-700">{ADMIN_TEXTS.adminAccount}</p>
        ) : (
          <Button variant="danger" onClick={() => setSuspending("suspend")}>
            Suspend account
          </Button>
        )}
      </div>
      <TextDialog
        open={suspending !== null}
        title={suspending === "restore" ? "Restore account" : "Suspend account"}
        description={
          suspending === "restore"
            ? `${person.email} can sign in again and their page shows its last published version.`
            : `${person.email} cannot sign in, every session ends, and /${person.username} shows "This page is unavailable". They read the reason in an e-mail.`
        }
        label={suspending === "restore" ? "Note" : "Reason"}
        multiline
        maxLength={1000}
        confirm={suspending === "restore" ? "Restore account" : "Suspend account"}
        danger={suspending !== "restore"}
        onClose={() => setSuspending(null)}
        onSubmit={async (text) => {
          const suspend = (reason: string) => unwrap(api.admin.people[":id"].suspend.$post({ param: { id }, json: { reason } }));
          const restore = (note: string) => unwrap(api.admin.people[":id"].restore.$post({ param: { id }, json: { note } }));
          if (suspending === "restore") {
            const { previousReason } = await restore(text);
            toast.success(`Restored ${person.email}`, { action: undoAction(() => suspend(previousReason), "Account suspended again", load) });
          } else {
            await suspend(text);
            toast.success(`Suspended ${person.email}`, { action: undoAction(() => restore(`Undo of the suspension: ${text}`), "Account restored", load) });
          }
          load();
        }}
      />
      <TextDialog
        open={signingOut}
        title="Sign out everywhere"
        description={`Every session of ${person.email} ends now; they sign in again to continue.`}
        label="Reason"
        multiline
        maxLength={1000}
        confirm="Sign out everywhere"
        danger
        onClose={() => setSigningOut(false)}
        onSubmit={async (reason) => {
          const { ended } = await unwrap(api.admin.people[":id"]["sign-out-everywhere"].$post({ param: { id }, json: { reason } }));
          toast.success(`Signed out of ${ended} ${ended === 1 ? "session" : "sessions"}`);
          setPerson({ ...person, sessions: 0 });
        }}
      />
    </section>
  );
}

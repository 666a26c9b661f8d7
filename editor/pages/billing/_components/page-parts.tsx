/**
 * What the hosted billing pages share besides the card form: the query parameter that names their
 * session or invoice, the test-mode session behind checkout and the payment-method page, and the
 * card that stands in for a page that cannot be shown. They call the API through the dashboard's
 * client (app/api.ts); a page of another owner, or one that does not exist, reads the same.
 */
import { useCallback, useEffect, useState } from "react";
import { CARD_MESSAGES } from "#core/schemas/billing.ts";
import { api, ApiFailure, unwrap } from "../../../app/api.ts";

export const param = (name: string) => new URLSearchParams(window.location.search).get(name) ?? "";

/** The session named by ?session=, loaded on mount; `refresh` loads it again. */
export function useTestSession() {
  const id = param("session");
  const { value: session, failure, reload: refresh } = useLoaded(() => unwrap(api.billing.test.sessions[":id"].$get({ param: { id } })), CARD_MESSAGES.sessionNotFound);
  return { id, session, failure, refresh };
}

export function Notice({ title, text, href, link }: { title: string; text: string; href: string; link: string }) {
  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="mt-2 text-slate-700">{text}</p>
      <a href={href} className="mt-6 inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white">
        {link}
      </a>
    </div>
  );
}

/** `load` run on mount: its value, or the server's message (`fallback` for anything else); `reload` runs it again. */
export function useLoaded<T>(load: () => Promise<T>, fallback: string) {
  const [value, setValue] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The first `load` serves every round: what it loads is named by the page's address, which stays.
  const reload = useCallback(
    () =>
      load()
        .then(setValue)
        .catch((err: unknown) => setFailure(err instanceof ApiFailure ? err.message : fallback)),
    [],
  );
  useEffect(() => void reload(), [reload]);
  return { value, failure, reload };
}

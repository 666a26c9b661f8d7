/**
 * The operator's console (ADR 105): reported pages, payouts, people and the record, under /admin. The server sends
 * this page only to an admin with two-factor on; everyone else gets the site's 404.
 */
import { useEffect, useState } from "react";
import { BrowserRouter, Navigate, NavLink, Route, Routes } from "react-router";
import { Toaster } from "sonner";
import { api, unwrap } from "../app/api.ts";
import { AppErrorBoundary } from "../app/components/AppErrorBoundary.tsx";
import { SkipLink } from "../app/components/skip-link.tsx";
import { AuditScreen } from "./AuditScreen.tsx";
import { PayoutsScreen } from "./PayoutsScreen.tsx";
import { PeopleScreen, PersonScreen } from "./PeopleScreen.tsx";
import { ReportsScreen } from "./ReportsScreen.tsx";

const TABS = [
  { to: "/admin/reports", label: "Reports" },
  { to: "/admin/payouts", label: "Payouts" },
  { to: "/admin/people", label: "People" },
  { to: "/admin/audit", label: "Audit log" },
];

export default function AdminApp() {
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    void unwrap(api.admin.session.$get()).then((s) => setEmail(s.email), () => setEmail(null));
  }, []);
  return (
    <AppErrorBoundary>
      <BrowserRouter>
        <SkipLink to="content" />
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3">
            <p className="text-lg font-bold">Plinth Console</p>
            {email ? <p className="text-sm text-slate-600">Signed in as {email}</p> : null}
          </div>
          <nav aria-label="Console" className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-4">
            {TABS.map((t) => (
              <NavLink
                key={t.to}
                to={t.to}
                className={({ isActive }) =>
                  `whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium ${isActive ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900"}`
                }
              >
                {t.label}
              </NavLink>
            ))}
          </nav>
        </header>
        <main id="content" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 outline-none">
          <Routes>
            <Route path="/admin" element={<Navigate to="/admin/payouts" replace />} />
            <Route path="/admin/reports" element={<ReportsScreen />} />
            <Route path="/admin/payouts" element={<PayoutsScreen />} />
            <Route path="/admin/people" element={<PeopleScreen />} />
            <Route path="/admin/people/:id" element={<PersonScreen />} />
            <Route path="/admin/audit" element={<AuditScreen />} />
            <Route path="*" element={<h1 className="text-2xl font-bold">Not found</h1>} />
          </Routes>
        </main>
        <Toaster position="top-center" visibleToasts={1} richColors closeButton />
      </BrowserRouter>
    </AppErrorBoundary>
  );
}

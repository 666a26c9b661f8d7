/** Billing tab: a placeholder until billing history from the billing provider is built. */
export default function BillingTab() {
  return (
    <section aria-labelledby="billing-soon" className="max-w-xl rounded-lg border border-dashed border-slate-300 p-6">
      <h2 id="billing-soon" className="text-lg font-semibold">
        Billing: coming soon
      </h2>
      <p className="mt-1 text-slate-700">Your invoices and billing history arrive with billing.</p>
    </section>
  );
}

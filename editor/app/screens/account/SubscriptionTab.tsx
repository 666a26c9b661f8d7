/** Subscription tab: a placeholder until billing (status, next billing date, cancel flow) is built. */
export default function SubscriptionTab() {
  return (
    <section aria-labelledby="subscription-soon" className="max-w-xl rounded-lg border border-dashed border-slate-300 p-6">
      <h2 id="subscription-soon" className="text-lg font-semibold">
        Subscription: coming soon
      </h2>
      <p className="mt-1 text-slate-700">Managing your Plinth Plus subscription (status, next billing date, cancelling) arrives with billing.</p>
    </section>
  );
}

/**
 * Runs `work` over `items` with at most `limit` at once (the bucket's PUTs and GETs: enough to hide
 * its latency, few enough for any provider's rate limits). The first failure stops the lanes from
 * taking more; it is thrown once the work under way has ended, so none runs on after a stop.
 */
export async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw (failure as { err: unknown }).err;
}

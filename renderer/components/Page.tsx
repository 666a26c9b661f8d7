/**
 * The public page. React components rendered to static HTML with react-dom/server; the same
 * components draw the dashboard's live preview.
 */
import type { PageSnapshot } from "#core/model.ts";

export interface PageProps {
  snapshot: PageSnapshot;
  now: Date;
}

const SAFE_HREF = /^(https?:|mailto:|tel:)/i;

export function Page({ snapshot, now }: PageProps) {
  const { profile } = snapshot;
  const visible = snapshot.links
    .filter((l) => l.isActive)
    .filter((l) => !l.scheduleStartTime || new Date(l.scheduleStartTime) <= now)
    .filter((l) => !l.scheduleEndTime || new Date(l.scheduleEndTime) > now)
    .sort((a, b) => a.orderIndex - b.orderIndex);
  return (
    <main>
      <h1>{profile.displayName || profile.username}</h1>
      {profile.bio ? <p>{profile.bio}</p> : null}
      <ul>
        {visible.map((link) => (
          <li key={link.id}>
            {SAFE_HREF.test(link.url) ? (
              <a href={link.url} rel="noopener">
                {link.title}
              </a>
            ) : (
              <span>{link.title}</span>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}

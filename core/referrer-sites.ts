/**
 * Traffic sources by site: the hosts a site's links come from, under one name. A host not listed is
 * shown as itself without a leading "www.". One small table; add a row to group another site.
 */
const SITES: [name: string, domains: string[]][] = [
  ["Instagram", ["instagram.com"]],
  ["Facebook", ["facebook.com", "fb.com", "fb.me", "messenger.com"]],
  ["X", ["x.com", "twitter.com", "t.co"]],
  ["TikTok", ["tiktok.com"]],
  ["YouTube", ["youtube.com", "youtu.be"]],
  ["LinkedIn", ["linkedin.com", "lnkd.in"]],
  ["Pinterest", ["pinterest.com", "pin.it"]],
  ["Reddit", ["reddit.com"]],
  ["Snapchat", ["snapchat.com"]],
  ["Threads", ["threads.net", "threads.com"]],
  ["Bluesky", ["bsky.app"]],
  ["Google", ["google.com"]],
  ["Bing", ["bing.com"]],
  ["DuckDuckGo", ["duckduckgo.com"]],
  ["WhatsApp", ["whatsapp.com", "wa.me"]],
  ["Telegram", ["telegram.org", "t.me"]],
  ["Discord", ["discord.com", "discord.gg"]],
];

const BY_DOMAIN = new Map(SITES.flatMap(([name, domains]) => domains.map((d) => [d, name] as const)));

const NAMES = new Set(SITES.map(([name]) => name));

/**
 * The site a referrer host belongs to: "l.instagram.com" is Instagram, "t.co" is X; "" stays ""
 * (direct), and a site's name is itself.
 */
export function referrerSite(host: string | null | undefined): string {
  if (!host) return "";
  if (NAMES.has(host)) return host;
  const h = host.toLowerCase().replace(/\.$/, "");
  const labels = h.split(".");
  // The host and every parent domain, longest first: m.facebook.com, facebook.com.
  for (let i = 0; i < labels.length - 1; i++) {
    const name = BY_DOMAIN.get(labels.slice(i).join("."));
    if (name) return name;
  }
  // Google's country domains: google.de, google.co.uk.
  if (/(^|\.)google\.[a-z]{2,3}(\.[a-z]{2})?$/.test(h)) return "Google";
  return h.replace(/^www\./, "");
}

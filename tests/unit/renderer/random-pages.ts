/**
 * Generated pages that take every branch of the page components (every link type, picture style,
 * position, plan, mode) with hostile and empty text and URLs in every field. Deterministic, so a
 * failure names a page that can be rebuilt from its seed.
 */
import type { PageLink, PagePlan, PageSnapshot } from "#core/model.ts";
import { LINK_TYPES } from "#core/link-types.ts";
import { PLATFORM_IDS } from "#core/platforms.ts";
import { FULLWIDTH_SUBTYPES, ICON_SUBTYPES, PICTURE_STYLES, SOCIAL_POSITIONS } from "#core/themes.ts";
import { LITE, link, list, ORIGIN, PLUS, snapshot, TRIAL } from "./fixtures.ts";
import { rng } from "#tests/support/rng.ts";

const TEXT = ["", " ", "Plain title", `"'&<>`, "<script>alert(1)</script>", "  padded  ", "é 漢字 🙂", "\u0000\u2028", "javascript:alert(1)", "x".repeat(300)];
const URLS = [
  "",
  "https://example.com/a?b=1&c='2'#d",
  "http://example.com",
  "mailto:a@example.com",
  "tel:+1 555 0100",
  "/media/ab/c.webp",
  "https://img.example/p.png",
  "javascript:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<b>",
  "//evil.example",
  'https://a";b.example/',
  "https:example.com",
  "https://example.com:99999/",
];
export const TYPES = [...LINK_TYPES, "qr_code", "future_type"];

export function randomPage(seed: number): { s: PageSnapshot; plan: PagePlan; mode: "published" | "preview"; origin: string } {
  const r = rng(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const t = () => pick(TEXT);
  const lists = Array.from({ length: Math.floor(r() * 3) }, (_, i) => list(`g${i}`, t(), i));
  const links: PageLink[] = Array.from({ length: Math.floor(r() * 12) }, () =>
    link({
      linkType: pick(TYPES) as PageLink["linkType"],
      title: t(),
      url: pick(URLS),
      isMainButton: r() < 0.15,
      isActive: r() < 0.9,
      thumbnailUrl: r() < 0.3 ? pick(URLS) : null,
      parentListId: lists.length && r() < 0.4 ? pick(lists).id : null,
      data: r() < 0.5 ? {} : { text: t(), url: pick(URLS), message: t(), description: t(), name: t(), phone: t(), email: pick([...TEXT, "a@b.co"]), organization: t() },
    }),
  );
  const socials = Array.from({ length: Math.floor(r() * 7) }, (_, i) => ({ id: `s${i}`, platform: pick(PLATFORM_IDS), url: pick(URLS), displayOrder: i, isVisible: r() < 0.9 }));
  const s = snapshot(
    {
      username: pick(["alice", "bob_2", "x-y"]),
      displayName: t(),
      bio: t(),
      longFormText: t(),
      initialsText: t(),
      profilePictureUrl: r() < 0.2 ? null : pick(URLS),
      profilePictureStyle: pick(PICTURE_STYLES),
      profilePictureIconSubtype: pick(ICON_SUBTYPES),
      profilePictureFullwidthSubtype: pick(FULLWIDTH_SUBTYPES),
      socialLinksPosition: pick(SOCIAL_POSITIONS),
      qrCodeVisible: r() < 0.7,
      removeBranding: r() < 0.3,
      hidePlatformBranding: r() < 0.2,
      profilePictureFullwidthUrl: r() < 0.3 ? null : pick(URLS),
    },
    links,
    socials,
    lists,
  );
  return { s, plan: pick([PLUS, LITE, TRIAL]), mode: r() < 0.2 ? "preview" : "published", origin: pick(["", ORIGIN]) };
}

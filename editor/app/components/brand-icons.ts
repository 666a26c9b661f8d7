/**
 * The brand marks the dashboard draws, loaded one platform at a time (ADR 132): a page shows a few
 * of the eighteen, so the live preview loads the marks of its platforms, not the whole table; the
 * Social Links screen asks for every platform. Until a mark arrives an empty mark of the same size
 * shows; after a failed load (offline for a moment) the next change of the list of platforms tries
 * again.
 */
import { useEffect, useState } from "react";
import type { PlatformId } from "#core/platforms.ts";
import type { BrandIconPaths } from "#renderer/components/brand-icons.ts";

type Mark = () => Promise<{ default: string }>;

// One module per platform, so the bundler gives each mark its own small script.
const MARKS: Record<PlatformId, Mark> = {
  tiktok: () => import("#renderer/components/brand-icons/tiktok.ts"),
  instagram: () => import("#renderer/components/brand-icons/instagram.ts"),
  snapchat: () => import("#renderer/components/brand-icons/snapchat.ts"),
  youtube: () => import("#renderer/components/brand-icons/youtube.ts"),
  x: () => import("#renderer/components/brand-icons/x.ts"),
  spotify: () => import("#renderer/components/brand-icons/spotify.ts"),
  soundcloud: () => import("#renderer/components/brand-icons/soundcloud.ts"),
  facebook: () => import("#renderer/components/brand-icons/facebook.ts"),
  linkedin: () => import("#renderer/components/brand-icons/linkedin.ts"),
  reddit: () => import("#renderer/components/brand-icons/reddit.ts"),
  pinterest: () => import("#renderer/components/brand-icons/pinterest.ts"),
  twitch: () => import("#renderer/components/brand-icons/twitch.ts"),
  vimeo: () => import("#renderer/components/brand-icons/vimeo.ts"),
  github: () => import("#renderer/components/brand-icons/github.ts"),
  strava: () => import("#renderer/components/brand-icons/strava.ts"),
  etsy: () => import("#renderer/components/brand-icons/etsy.ts"),
  behance: () => import("#renderer/components/brand-icons/behance.ts"),
  whatsapp: () => import("#renderer/components/brand-icons/whatsapp.ts"),
};

/** Every mark loaded so far, shared by every screen of the tab. */
let loaded: BrandIconPaths = {};

/** The marks of `platforms` that have loaded; the component renders again as the others arrive. */
export function useBrandIcons(platforms: readonly PlatformId[]): BrandIconPaths {
  const [icons, setIcons] = useState(loaded);
  const missing = [...new Set(platforms)].filter((p) => !(p in loaded)).sort().join(" ");
  useEffect(() => {
    if (!missing) {
      setIcons(loaded);
      return;
    }
    let live = true;
    void Promise.allSettled(
      (missing.split(" ") as PlatformId[]).map((p) =>
        MARKS[p]().then((m) => {
          loaded = { ...loaded, [p]: m.default };
        }),
      ),
    ).then(() => {
      if (live) setIcons(loaded);
    });
    return () => {
      live = false;
    };
  }, [missing]);
  return icons;
}

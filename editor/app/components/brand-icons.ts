/**
 * The brand marks the dashboard draws: the renderer's whole table, loaded in one request the first
 * time a screen needs a mark (ADR 249). Until it arrives an empty mark of the same size shows; after
 * a failed load (offline for a moment) the next change of the list of platforms tries again.
 */
import { useEffect, useState } from "react";
import type { PlatformId } from "#core/platforms.ts";
import type { BrandIconPaths } from "#renderer/components/brand-icons.ts";

/** The table once loaded, shared by every screen of the tab. */
let loaded: BrandIconPaths = {};
let loading: Promise<void> | undefined;

/** The marks of `platforms`, once the table has loaded; the component renders again when it arrives. */
export function useBrandIcons(platforms: readonly PlatformId[]): BrandIconPaths {
  const [icons, setIcons] = useState(loaded);
  const missing = platforms.some((p) => !(p in loaded));
  const wanted = [...new Set(platforms)].sort().join(" ");
  useEffect(() => {
    if (!missing) {
      setIcons(loaded);
      return;
    }
    let live = true;
    loading ??= import("#renderer/components/brand-icons.ts").then(
      (m) => {
        loaded = m.BRAND_ICONS;
      },
      () => {
        loading = undefined;
      },
    );
    void loading.then(() => {
      if (live) setIcons(loaded);
    });
    return () => {
      live = false;
    };
  }, [missing, wanted]);
  return icons;
}

/**
 * ADR 123: the dashboard's shell and screens load neither zod nor sonner before first use. Following
 * only static imports (not `import type`, not `import()`) from the dashboard's entry and from every
 * screen module, no path may reach either package: a form loads core's schema when it is first
 * checked, and toasts load with the first toast (editor/app/toast.tsx). Nor does the shell load
 * Radix's tooltip or popover: the screens that show a Plus badge or a popover load those themselves.
 * ADR 131: nor does any of them load Radix's dropdown menu (with its popper and floating-ui): every
 * menu loads it when first opened (editor/app/components/lazy-menu.tsx), and Analytics' range
 * popover when first pressed. Dates are written by editor/components/dates.ts, so no screen loads
 * date-fns either.
 * ADR 132: nor @dnd-kit (loaded when a reorder handle is first reached, components/sortable.tsx),
 * Radix's dialog stack (when a dialog first opens, components/dialog.tsx) or tooltip (when a PLUS
 * badge is first hovered or focused), the live preview's renderer (when the preview is first on
 * screen), the link dialog (when first opened), the mobile menu's drawer or the checkout code.
 * Nor, the live preview and Social Links included, any brand mark's path data: each mark is its own
 * module, loaded for the platforms shown (editor/app/components/brand-icons.ts). Nor does the shell
 * load all of billing for the Plus price, or the Publish dialog of a refused draft before it opens,
 * or History (ADR 137) before it is first opened.
 * The live preview's renderer (renderer/components/Page.tsx and renderer/css.ts, shared with the
 * published page) reaches no zod either: it reads a Music link's stored services with the zod-free
 * core/music.ts, and the schema that checks them (core/schemas/music.ts) loads with the link dialog.
 * The links list loads core/embeds.ts when it first shows a Player badge.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const HEAVY = ["zod", "sonner", "date-fns", "@dnd-kit/core", "@dnd-kit/sortable", "@dnd-kit/utilities"];

/** The files and packages a source file imports when it loads. */
function staticImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm)) {
    const spec = m[1]!;
    if (spec.startsWith("#")) out.push(spec.slice(1));
    else if (spec.startsWith(".")) out.push(relative(ROOT, resolve(ROOT, dirname(file), spec)));
    else out.push(spec);
  }
  return out;
}

/** The import chain from `entry` to a heavy package, or null. */
function pathToHeavy(entry: string, seen = new Set<string>()): string[] | null {
  if (seen.has(entry)) return null;
  seen.add(entry);
  for (const spec of staticImports(entry)) {
    if (HEAVY.some((p) => spec === p || spec.startsWith(`${p}/`))) return [entry, spec];
    if (!existsSync(join(ROOT, spec)) || !/\.(ts|tsx)$/.test(spec)) continue;
    const rest = pathToHeavy(spec, seen);
    if (rest) return [entry, ...rest];
  }
  return null;
}

/** Every file the dashboard's entry loads through static imports. */
function staticGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const spec of staticImports(entry)) if (existsSync(join(ROOT, spec)) && /\.(ts|tsx)$/.test(spec)) staticGraph(spec, seen);
  return seen;
}

const screens = readdirSync(join(ROOT, "editor/app/screens"), { recursive: true, encoding: "utf8" })
  .filter((f) => /Screen\.tsx$/.test(f))
  .map((f) => `editor/app/screens/${f}`);

describe("the dashboard's first load", () => {
  it("the brand marks load after the first paint, as one table (ADR 249)", () => {
    for (const screen of ["editor/app/preview/LivePreview.tsx", "editor/app/screens/social/SocialLinksScreen.tsx"]) {
      const graph = [...staticGraph(screen)];
      expect(graph.filter((f) => f.startsWith("renderer/components/brand-icons"))).toEqual([]);
    }
    expect([...staticGraph("editor/app/preview/LivePreview.tsx")]).toContain("renderer/components/Page.tsx");
    const loader = readFileSync(join(ROOT, "editor/app/components/brand-icons.ts"), "utf8");
    expect(loader.match(/import\(/g)).toHaveLength(1);
    expect(loader).toContain('import("#renderer/components/brand-icons.ts")');
  });

  // The preview draws the page when it is first on screen, beside the editor on large screens: what
  // its renderer loads counts towards the three editor screens' first load.
  it.each(["renderer/components/Page.tsx", "renderer/css.ts", "editor/app/preview/LivePreview.tsx"])("%s reaches no zod through static imports", (entry) => {
    expect(pathToHeavy(entry)).toBeNull();
    expect([...staticGraph(entry)].filter((f) => f.startsWith("core/schemas/"))).toEqual([]);
  });

  it("the live preview draws Music cards and players with core's readers", () => {
    const graph = [...staticGraph("editor/app/preview/LivePreview.tsx")];
    expect(graph).toContain("core/music.ts");
    expect(graph).toContain("core/embeds.ts");
    expect(staticImports("core/music.ts")).not.toContain("zod");
  });

  // ADR 132: the dialogs' Radix parts load when a dialog first opens. The shell does load Modal and
  // Confirm (components/modal.tsx: the unsaved-changes prompt, the status bar), which must import
  // dialog.tsx only with import().
  it("the shell loads the dialogs' wrapper, not their Radix parts", () => {
    const graph = [...staticGraph("editor/app/App.tsx")];
    expect(graph).toContain("editor/app/components/modal.tsx");
    expect(staticImports("editor/app/components/modal.tsx")).not.toContain("editor/app/components/dialog.tsx");
    expect(readFileSync(join(ROOT, "editor/app/components/modal.tsx"), "utf8")).toContain('import("./dialog.tsx")');
  });

  it("finds the screens", () => {
    expect(screens.length).toBeGreaterThanOrEqual(8);
  });

  it("the shell loads no Radix tooltip, popover or switch", () => {
    const positioned = [...staticGraph("editor/app/App.tsx")].filter((file) =>
      /import\s*\{[^}]*\b(Tooltip|Popover|Switch)\b[^}]*\}\s*from\s*"radix-ui"/.test(readFileSync(join(ROOT, file), "utf8")),
    );
    expect(positioned).toEqual([]);
  });

  // ADR 131: what only a later tab or a dialog shows loads with that tab or dialog.
  it.each([
    ["editor/app/screens/analytics/AnalyticsScreen.tsx", "editor/app/screens/analytics/DetailPanels.tsx"],
    ["editor/app/screens/affiliate/AffiliateScreen.tsx", "editor/app/screens/affiliate/BalanceDialogs.tsx"],
    ["editor/app/screens/affiliate/AffiliateScreen.tsx", "editor/app/screens/affiliate/ShareDialog.tsx"],
    // ADR 132
    ["editor/app/screens/links/LinksScreen.tsx", "editor/app/screens/links/LinkDialog.tsx"],
    // The Player badge's recognition loads with the first player on the list.
    ["editor/app/screens/links/LinksScreen.tsx", "core/embeds.ts"],
    ["editor/app/screens/links/LinksScreen.tsx", "editor/app/dnd.tsx"],
    ["editor/app/screens/social/SocialLinksScreen.tsx", "editor/app/dnd.tsx"],
    ["editor/app/screens/bio/BioScreen.tsx", "editor/app/components/plus-tooltip.tsx"],
    ["editor/app/App.tsx", "editor/app/components/dialog.tsx"],
    ["editor/app/App.tsx", "editor/app/shell/MobileMenu.tsx"],
    ["editor/app/App.tsx", "editor/app/screens/account/billing-ui.tsx"],
    // The shell names the Plus price (core/plus-price.ts), not all of billing; the Publish dialog of
    // a refused draft loads when it opens; Profile Picture's colour field with the Initials style,
    // its cropping code with the first crop.
    ["editor/app/App.tsx", "core/billing.ts"],
    ["editor/app/App.tsx", "editor/app/shell/PublishBlockers.tsx"],
    // ADR 137: History loads when first opened from the publish bar.
    ["editor/app/App.tsx", "editor/app/shell/HistoryDialog.tsx"],
    ["editor/app/App.tsx", "core/history.ts"],
    ["editor/app/App.tsx", "editor/app/screens/NotFound.tsx"],
    ["editor/app/screens/profile/ProfilePictureScreen.tsx", "editor/app/screens/appearance/ColorField.tsx"],
    ["editor/app/screens/profile/ProfilePictureScreen.tsx", "editor/app/screens/profile/crop-image.ts"],
  ])("%s loads %s only when it is shown", (screen, panel) => {
    expect([...staticGraph(screen)]).not.toContain(panel);
  });

  for (const entry of ["editor/app/App.tsx", ...screens]) {
    it(`${entry} loads no Radix dropdown menu, popover, dialog, tooltip or switch through static imports`, () => {
      const menus = [...staticGraph(entry)].filter((file) =>
        /import\s*\{[^}]*\b(DropdownMenu|Popover|Dialog|AlertDialog|Tooltip|Switch)\b[^}]*\}\s*from\s*"radix-ui"/.test(readFileSync(join(ROOT, file), "utf8")),
      );
      expect(menus).toEqual([]);
    });

    // ADR 132: Radix's dialog stack (dialog.tsx, the mobile drawer), however it is imported.
    it(`${entry} loads no Radix dialog stack through static imports`, () => {
      const graph = [...staticGraph(entry)];
      expect(graph).not.toContain("editor/app/components/dialog.tsx");
      expect(graph).not.toContain("editor/app/shell/MobileMenu.tsx");
      const packages = graph.filter((f) => /\.(ts|tsx)$/.test(f)).flatMap((f) => staticImports(f).map((spec) => `${f}: ${spec}`));
      expect(packages.filter((p) => /: (@radix-ui\/react-(alert-)?dialog|vaul)$/.test(p))).toEqual([]);
      expect(graph.filter((f) => /import\s*\*\s*as\s+\w+\s+from\s*"radix-ui"/.test(readFileSync(join(ROOT, f), "utf8")))).toEqual([]);
    });

    it(`${entry} reaches none of zod, sonner, date-fns and @dnd-kit through static imports`, () => {
      expect(pathToHeavy(entry)).toBeNull();
    });

    // ADR 132: the marks load one platform at a time, for the platforms shown.
    it(`${entry} loads no brand mark through static imports`, () => {
      expect([...staticGraph(entry)].filter((f) => f.startsWith("renderer/components/brand-icons"))).toEqual([]);
    });

    // ADR 132: the live preview draws the public page's components when it is first on screen.
    it(`${entry} loads the renderer's page and CSS only with the live preview`, () => {
      const graph = [...staticGraph(entry)];
      expect(graph).not.toContain("renderer/components/Page.tsx");
      expect(graph).not.toContain("renderer/css.ts");
      expect(graph).not.toContain("editor/app/preview/LivePreview.tsx");
    });
  }
});

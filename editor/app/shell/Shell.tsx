/**
 * The dashboard frame: top bar with the user menu, the sidebar (large screens), the mobile menu, the
 * status bar and the current screen.
 */
import { BarChart3, Banknote, ExternalLink, Home, Image, Link2, LogOut, Menu, Palette, Settings, Share2, Type, Wallet } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import { toast } from "../toast.tsx";
import { SUSPENSION_TEXTS } from "#core/admin.ts";
import { initialsOf, shownName } from "#core/initials.ts";
import { LOGOUT_UPSELL_KEY, LOGOUT_UPSELL_REASON } from "#core/logout-upsell.ts";
import { api, setSigningOut, unwrap } from "../api.ts";
import { useDashboard, isLite } from "../store.ts";
import { StatusBar } from "./StatusBar.tsx";
import { hasUnsavedChanges, UnsavedChangesGuard } from "./unsaved.tsx";
import { LazyMenu } from "../components/lazy-menu.tsx";
import { PlusTag } from "../components/plus-tag.tsx";
import { SkipLink } from "../components/skip-link.tsx";

export const NAV = [
  { to: "/dashboard/analytics", label: "Analytics", icon: BarChart3 },
  { to: "/dashboard/links", label: "Links", icon: Link2 },
  { to: "/dashboard/social-links", label: "Social Links", icon: Share2 },
  { to: "/dashboard/profile-picture", label: "Profile Picture", icon: Image },
  { to: "/dashboard/bio", label: "Bio & SEO", icon: Type },
  { to: "/dashboard/appearance", label: "Theme", icon: Palette },
  { to: "/dashboard/earnings", label: "Earnings", icon: Banknote, plus: true },
  { to: "/dashboard/affiliate", label: "Affiliate Program", icon: Wallet, plus: true },
  { to: "/dashboard/account-settings", label: "Account & Billing", icon: Settings },
] as const;

function NavItems({ onNavigate }: { onNavigate?: () => void }) {
  const me = useDashboard((s) => s.me);
  return (
    <ul className="space-y-1">
      {NAV.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            onClick={onNavigate}
            className={({ isActive }) =>
              `flex items-center gap-2.5 rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"}`
            }
          >
            <item.icon aria-hidden className="size-4" />
            <span className="whitespace-nowrap">{item.label}</span>
            {"plus" in item && item.plus && isLite(me) ? (
              <span className="ml-auto">
                <PlusTag />
              </span>
            ) : null}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function UserMenu() {
  const me = useDashboard((s) => s.me);
  const navigate = useNavigate();
  if (!me) return null;
  const name = shownName(me.displayName, me.username);
  // The owner's own picture, whichever shape they uploaded; else their initials.
  const picture = me.profilePictureUrl ?? me.profilePictureFullwidthUrl;
  async function signOut() {
    // docs/product.md section 4, Logout upsell: a Lite owner without an active trial sees the upgrade dialog on
    // the landing page; the prompt is recorded now, while the request can still say whose it is.
    const upsell = isLite(me);
    if (upsell) await unwrap(api["upgrade-requests"].$post({ json: { feature: LOGOUT_UPSELL_REASON } })).catch(() => undefined);
    setSigningOut(true);
    const res = await fetch("/api/auth/logout", { method: "POST", credentials: "same-origin" }).catch(() => null);
    if (!res?.ok) {
      setSigningOut(false);
      // The account texts load only here: every screen loads the shell (ADR 131).
      const { AUTH_TEXT } = await import("#core/auth-rules.ts");
      return void toast.error(AUTH_TEXT.signOutFailed);
    }
    if (upsell) sessionStorage.setItem(LOGOUT_UPSELL_KEY, LOGOUT_UPSELL_REASON);
    window.location.assign("/");
  }
  return (
    <LazyMenu
      align="end"
      sideOffset={6}
      className="z-50 min-w-56 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
      trigger={
        // The name is the button's visible label, so its accessible name begins with it (WCAG 2.5.3).
        <button type="button" className="flex min-w-0 max-w-full items-center gap-2 rounded-full p-1 pr-3 hover:bg-slate-100" aria-label={`${name}, user menu`}>
          {picture ? (
            <img src={picture} alt="" className="size-9 shrink-0 rounded-full object-cover" />
          ) : (
            // The public page's initials for this owner, by the same function (ADR 143). Like the picture
            // it stands for, the avatar is decoration: the initials are drawn, not text, so the button's
            // visible label is the name alone.
            <span
              aria-hidden
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white before:content-[attr(data-initials)]"
              data-initials={initialsOf(me.initialsText, name)}
              data-testid="avatar-initials"
            />
          )}
          <span className="min-w-0 truncate text-sm font-medium sm:max-w-[14rem]">{name}</span>
        </button>
      }
    >
      {({ MenuItem, MenuSeparator }) => (
        <>
          <div className="px-3 py-2">
            <p className="text-sm font-semibold">{name}</p>
            <p className="text-xs text-slate-600">@{me.username}</p>
          </div>
          <MenuSeparator />
          <MenuItem onSelect={() => navigate("/dashboard/account")}>
            <Settings aria-hidden className="size-4" /> Account Settings
          </MenuItem>
          <MenuItem onSelect={() => window.open(me.pageAddress, "_blank", "noopener")}>
            <ExternalLink aria-hidden className="size-4" /> View Public Page
          </MenuItem>
          <MenuSeparator />
          <MenuItem onSelect={signOut}>
            <LogOut aria-hidden className="size-4" /> Sign out
          </MenuItem>
        </>
      )}
    </LazyMenu>
  );
}

type MobileMenuPart = (typeof import("./MobileMenu.tsx"))["MobileMenuDialog"];
let mobileMenu: MobileMenuPart | null = null;

function MobileMenu() {
  const [open, setOpen] = useState(false);
  const [Drawer, setDrawer] = useState<MobileMenuPart | null>(() => mobileMenu);
  // The menu closes once the owner has moved to another screen: a move held by unsaved changes
  // keeps it open, so Stay returns to the link that was chosen.
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  if (!Drawer) {
    // Until its first press the drawer's dialog is not loaded (ADR 132); a press that fails offline
    // does nothing, and the next one tries again.
    const press = () =>
      import("./MobileMenu.tsx").then(
        (m) => {
          mobileMenu = m.MobileMenuDialog;
          setOpen(true);
          setDrawer(() => m.MobileMenuDialog);
        },
        () => undefined,
      );
    return (
      <button type="button" className="rounded p-2 hover:bg-slate-100 lg:hidden" aria-label="Open menu" aria-haspopup="dialog" aria-expanded={false} onClick={press}>
        <Menu aria-hidden className="size-5" />
      </button>
    );
  }
  return (
    <Drawer open={open} onOpenChange={setOpen}>
      <nav aria-label="Dashboard">
        <NavItems onNavigate={() => !hasUnsavedChanges() && setOpen(false)} />
        <a href="/" className="mt-4 flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
          <Home aria-hidden className="size-4" /> Back to Home
        </a>
      </nav>
    </Drawer>
  );
}

/** While the page is suspended the owner reads why on every screen (ADR 108). */
function SuspensionBanner() {
  const suspension = useDashboard((s) => s.publish?.suspension ?? null);
  if (!suspension) return null;
  return (
    <section role="alert" aria-labelledby="suspension-title" className="border-b border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
      <h2 id="suspension-title" className="font-semibold">
        {SUSPENSION_TEXTS.bannerTitle}
      </h2>
      <p className="mt-1">
        {SUSPENSION_TEXTS.bannerBody} <span className="whitespace-pre-line">{suspension.reason}</span>
      </p>
    </section>
  );
}

export function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-white">
      <SkipLink to="main" />
      <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-2">
        <MobileMenu />
        <a href="/" className="flex items-center gap-2 text-xl font-bold text-brand-700">
          <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" data-testid="logo-mark" />
          Plinth
        </a>
        <div className="ml-auto min-w-0">
          <UserMenu />
        </div>
      </header>
      <UnsavedChangesGuard />
      <SuspensionBanner />
      <StatusBar />
      <div className="flex">
        <aside className="hidden w-64 shrink-0 border-r border-slate-200 p-4 lg:block">
          <nav aria-label="Dashboard">
            <NavItems />
          </nav>
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none sm:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}

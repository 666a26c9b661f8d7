/**
 * The initials an owner is shown by (spec section 5, Profile text; ADR 143): the owner's own initials
 * when set (letters and digits, at most 2, in capitals), else the first letters of the first two words
 * of the name, or a one-word name's first two letters. One function for the public page, the Profile
 * Picture screen and the dashboard's top-bar avatar, so the same owner has the same initials everywhere.
 */
export function initialsOf(initialsText: string | null | undefined, name: string): string {
  const own = [...(initialsText ?? "").trim()].filter((c) => /\p{L}|\p{N}/u.test(c)).slice(0, 2).join("");
  if (own) return own.toUpperCase();
  const words = name.trim().split(/\s+/).filter(Boolean);
  const derived = words.length > 1 ? [...words[0]!][0]! + [...words[1]!][0]! : [...(words[0] ?? "")].slice(0, 2).join("");
  return derived.toUpperCase() || "?";
}

/** The name the page and the dashboard show for an owner: the display name, else the username. */
export const shownName = (displayName: string | null | undefined, username: string) => displayName?.trim() || username;

/** The first tab stop of a screen: straight past the header and the navigation to the screen itself. */
export function SkipLink({ to }: { to: string }) {
  return (
    <a
      href={`#${to}`}
      className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:font-medium focus:text-brand-700 focus:shadow-lg focus:ring-2 focus:ring-brand-600"
    >
      Skip to content
    </a>
  );
}

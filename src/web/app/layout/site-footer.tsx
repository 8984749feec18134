import { openCookiePreferences } from '@web/features/cookie-consent/consent-store';

export function SiteFooter() {
  return (
    <footer className="border-t border-border bg-muted/60">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-4 py-6 text-base text-muted-foreground sm:flex-row sm:px-6">
        {/* A page rendered at build time may carry last year until the app takes it over. */}
        <p suppressHydrationWarning>© {new Date().getFullYear()} Memento</p>
        <button
          type="button"
          onClick={openCookiePreferences}
          className="inline-flex min-h-11 cursor-pointer items-center rounded-md px-2 underline underline-offset-4 hover:text-foreground"
        >
          Cookie preferences
        </button>
      </div>
    </footer>
  );
}

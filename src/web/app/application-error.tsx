import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { RefreshCw } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { reloadsByItself } from './stale-chunks';

/**
 * The card a page is replaced with when it cannot be shown: a heading, what to know, that the
 * videos in this browser are safe, and what to press if anything. `role` says whether it
 * interrupts (an alert) or only informs (a status).
 */
function PageUnavailable({
  role,
  title,
  children,
  action,
}: {
  role: 'alert' | 'status';
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div role={role} className="flex min-h-[60dvh] items-center justify-center p-6">
      <div className="flex max-w-xl flex-col gap-5 rounded-xl border border-border bg-card p-8 shadow-soft sm:p-10">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {children}
        <p className="text-base text-muted-foreground">
          Your videos are stored in this browser and are not affected.
        </p>
        {action && <div>{action}</div>}
      </div>
    </div>
  );
}

/** What to do when the app itself fails. */
export function ApplicationErrorPage() {
  return (
    <PageUnavailable
      role="alert"
      title="Application Error"
      action={
        <Button size="lg" onClick={() => window.location.reload()}>
          <RefreshCw aria-hidden="true" />
          Refresh Page
        </Button>
      }
    >
      <p className="text-lg">
        Something went wrong and Memento could not be shown. These steps usually help:
      </p>
      <ol className="flex list-decimal flex-col gap-2 pl-6 text-lg">
        <li>Refresh the page.</li>
        <li>If that does not help, clear your browser&apos;s cache for this site and try again.</li>
        <li>Or open Memento in a new tab.</li>
      </ol>
    </PageUnavailable>
  );
}

/** How each browser words a page's code (or its styles) that did not arrive. */
const CODE_NOT_ARRIVED =
  /dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

/**
 * A page whose code could not be fetched: the server is away for a moment or was just updated.
 * The tab reloads by itself once the server answers, so nothing here asks for a refresh, which
 * while the server is away would leave the browser's own error page.
 */
function WaitingForServerPage() {
  return (
    <PageUnavailable role="status" title="Memento will be back in a moment">
      <p className="text-lg">
        This page could not reach Memento just now. It opens by itself as soon as Memento answers
        again; there is nothing you need to do.
      </p>
    </PageUnavailable>
  );
}

/** Router errorElement: logs the error, then shows the Application Error page. */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    console.warn('Route failed to render', error);
  }, [error]);
  if (error instanceof Error && CODE_NOT_ARRIVED.test(error.message) && reloadsByItself()) {
    return <WaitingForServerPage />;
  }
  return <ApplicationErrorPage />;
}

interface AppErrorBoundaryState {
  hasError: boolean;
}

/** Last line of defence around the whole app. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, AppErrorBoundaryState> {
  override state: AppErrorBoundaryState = { hasError: false };

  static getDerivedStateFromError(): AppErrorBoundaryState {
    return { hasError: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.warn('Application error', error, info.componentStack);
  }

  override render() {
    return this.state.hasError ? <ApplicationErrorPage /> : this.props.children;
  }
}

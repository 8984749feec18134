import { useState, type ReactNode } from 'react';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { describeError } from '@web/lib/api-client';
import { usePageTitle } from '@web/lib/use-page-title';

/** The token rides in the fragment: browsers never send it, so no server log holds it. */
function readToken(): string {
  return decodeURIComponent(window.location.hash.replace(/^#/, '')).trim();
}

/**
 * A link in the owner's email that stops something asked for in their name. Nothing happens on
 * opening it (mail scanners open links); one press of the button stops it, with no password: the
 * link is single-use and ends with the wait.
 */
export function StopByLink({
  title,
  explanation,
  buttonLabel,
  doneText,
  failedTitle,
  stop,
}: {
  title: string;
  explanation: ReactNode;
  buttonLabel: string;
  doneText: string;
  failedTitle: string;
  stop: (token: string) => Promise<unknown>;
}) {
  usePageTitle(title);
  const [token] = useState(readToken);
  const [isStopping, setIsStopping] = useState(false);
  const [isDone, setIsDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onStop() {
    if (isStopping) return;
    setIsStopping(true);
    setError(null);
    try {
      await stop(token);
      setIsDone(true);
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsStopping(false);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <Card>
        <CardHeader className="gap-2">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        </CardHeader>
        <CardContent className="flex flex-col gap-5 text-lg">
          {isDone ? (
            <p role="status" className="flex items-start gap-3 font-semibold">
              <CircleCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
              {doneText}
            </p>
          ) : (
            <>
              <p>{explanation}</p>
              {token ? (
                <Button
                  size="lg"
                  className="min-h-16 w-full text-xl sm:w-auto"
                  onClick={() => void onStop()}
                  aria-disabled={isStopping || undefined}
                >
                  {isStopping ? 'Stopping...' : buttonLabel}
                </Button>
              ) : (
                <Alert variant="warm" title="This link is not complete">
                  <p>
                    Please open the link from the email again, or sign in to Memento on any of your
                    devices and stop it there.
                  </p>
                </Alert>
              )}
              {error && (
                <Alert
                  variant="destructive"
                  title={failedTitle}
                  icon={<CircleAlert aria-hidden="true" />}
                >
                  <p>{error}</p>
                </Alert>
              )}
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

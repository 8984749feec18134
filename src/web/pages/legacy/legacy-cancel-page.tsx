import { useState } from 'react';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { CANCEL_TEXT } from '@web/features/legacy/release-wording';
import { cancelReleaseByLink } from '@web/features/legacy/legacy-api';
import { describeError } from '@web/lib/api-client';
import { usePageTitle } from '@web/lib/use-page-title';

/** The token rides in the fragment: browsers never send it, so no server log holds it. */
function readToken(): string {
  return decodeURIComponent(window.location.hash.replace(/^#/, '')).trim();
}

/**
 * The link in the owner's email. Nothing happens on opening it (mail scanners open links); one
 * press of the button cancels, with no password: the link is single-use and ends with the period.
 */
export default function LegacyCancelPage() {
  usePageTitle('Cancel the legacy release');
  const [token] = useState(readToken);
  const [isCancelling, setIsCancelling] = useState(false);
  const [isDone, setIsDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onCancel() {
    if (isCancelling) return;
    setIsCancelling(true);
    setError(null);
    try {
      await cancelReleaseByLink(token);
      setIsDone(true);
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsCancelling(false);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <Card>
        <CardHeader className="gap-2">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">
            Cancel the legacy release
          </h1>
        </CardHeader>
        <CardContent className="flex flex-col gap-5 text-lg">
          {isDone ? (
            <p role="status" className="flex items-start gap-3 font-semibold">
              <CircleCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
              {CANCEL_TEXT.done}
            </p>
          ) : (
            <>
              <p>
                Your next of kin has asked to release your legacy. If you are well and do not want
                your messages opened, press the button below. Your next of kin is told that you
                cancelled.
              </p>
              {token ? (
                <Button
                  size="lg"
                  className="min-h-16 w-full text-xl sm:w-auto"
                  onClick={() => void onCancel()}
                  aria-disabled={isCancelling || undefined}
                >
                  {isCancelling ? 'Cancelling...' : CANCEL_TEXT.button}
                </Button>
              ) : (
                <Alert variant="warm" title="This link is not complete">
                  <p>
                    Please open the link from the email again, or sign in to Memento on any of your
                    devices and cancel there.
                  </p>
                </Alert>
              )}
              {error && (
                <Alert
                  variant="destructive"
                  title="The release was not cancelled"
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

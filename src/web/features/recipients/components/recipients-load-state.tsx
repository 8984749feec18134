import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { describeError } from '@web/lib/api-client';

/** While GET /api/recipients loads, or when it failed: a spinner line or the error with a retry. */
export function RecipientsLoadState({
  isLoading,
  error,
  onRetry,
}: {
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  if (isLoading) {
    return (
      <p role="status" className="flex items-center gap-3 text-lg">
        <Spinner /> Loading your recipients...
      </p>
    );
  }
  if (!error) return null;
  return (
    <Alert variant="destructive" title="Your recipients could not be loaded">
      <p>{describeError(error, 'Please try again.')}</p>
      <div>
        <Button variant="outline" onClick={onRetry}>
          Try Again
        </Button>
      </div>
    </Alert>
  );
}

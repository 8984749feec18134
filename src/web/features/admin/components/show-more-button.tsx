import { ChevronDown } from 'lucide-react';
import { Button } from '@web/components/ui/button';

interface ShowMoreButtonProps {
  isLoading: boolean;
  /** The last attempt to load more failed: said beside the button, which tries again. */
  error: Error | null;
  /** What failed to load, e.g. 'users'. */
  what: string;
  onShowMore: () => void;
}

/**
 * The next page of an admin list. Never disabled while loading, so a keyboard user's focus stays
 * on it; a second press meanwhile does nothing.
 */
export function ShowMoreButton({ isLoading, error, what, onShowMore }: ShowMoreButtonProps) {
  return (
    <div className="flex flex-col items-center gap-3">
      {error && (
        <p role="alert" className="text-lg text-destructive">
          More {what} could not be loaded: {error.message}
        </p>
      )}
      <Button
        variant="outline"
        size="lg"
        className="w-full sm:w-auto sm:min-w-72"
        aria-disabled={isLoading}
        onClick={() => {
          if (!isLoading) onShowMore();
        }}
      >
        <ChevronDown aria-hidden="true" />
        {isLoading ? 'Loading more...' : 'Show more'}
      </Button>
    </div>
  );
}

import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { usePageTitle } from '@web/lib/use-page-title';

export default function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center gap-5 py-10 text-center">
      <p className="text-6xl font-bold text-primary/80" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Page Not Found</h1>
      <p className="text-lg text-muted-foreground">
        We couldn&apos;t find the page you were looking for. It may have moved, or the address may
        have a typing mistake.
      </p>
      <Button asChild size="lg">
        <Link to="/">
          <Home aria-hidden="true" />
          Go Home
        </Link>
      </Button>
    </div>
  );
}

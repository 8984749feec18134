import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Button } from '@web/components/ui/button';

/** The link home at the top of the pages reached from the dashboard. */
export function BackHomeLink({ label = 'Home' }: { label?: string }) {
  return (
    <Button asChild variant="link" className="self-start">
      <Link to="/">
        <ArrowLeft aria-hidden="true" />
        {label}
      </Link>
    </Button>
  );
}

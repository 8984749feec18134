import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Button } from '@web/components/ui/button';

/** The 'Home' link at the top of the pages reached from the dashboard. */
export function BackHomeLink() {
  return (
    <Button asChild variant="link" className="self-start">
      <Link to="/">
        <ArrowLeft aria-hidden="true" />
        Home
      </Link>
    </Button>
  );
}

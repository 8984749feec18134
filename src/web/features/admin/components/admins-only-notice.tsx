import { Link } from 'react-router';
import { Home, ShieldAlert } from 'lucide-react';
import { ADMIN_MESSAGES } from '@shared/domain/admin-messages';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { usePageTitle } from '@web/lib/use-page-title';

/** What a signed-in non-admin sees at /admin. */
export function AdminsOnlyNotice() {
  usePageTitle('Admin Dashboard');
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Admin Dashboard</h1>
      <Alert
        variant="warm"
        kind="note"
        title={ADMIN_MESSAGES.adminsOnly}
        icon={<ShieldAlert aria-hidden="true" />}
      >
        <p>
          If you need something changed on your account, please ask the person who runs Memento for
          you.
        </p>
        <div>
          <Button asChild>
            <Link to="/">
              <Home aria-hidden="true" />
              Go to Home
            </Link>
          </Button>
        </div>
      </Alert>
    </div>
  );
}

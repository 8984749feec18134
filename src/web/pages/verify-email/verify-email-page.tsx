import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { CircleAlert, CircleCheck, Home } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { PageSpinner } from '@web/components/ui/spinner';
import { confirmEmailVerification } from '@web/features/admin/admin-api';
import { usePageTitle } from '@web/lib/use-page-title';

const INCOMPLETE_LINK = 'This verification link is not complete.';

/** The token travels in the URL fragment, which browsers never send to a server. */
function readTokenFromFragment(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  return token?.trim() || null;
}

function HomeButton() {
  return (
    <div>
      <Button asChild variant="outline">
        <Link to="/">
          <Home aria-hidden="true" />
          Go to Memento
        </Link>
      </Button>
    </div>
  );
}

/** /verify-email#token=…: the link in a verification mail sent from the admin email tools. */
export default function VerifyEmailPage() {
  usePageTitle('Verify Email');
  const [token] = useState(readTokenFromFragment);
  useEffect(() => {
    // A reload must not send the used token again; the address bar keeps only the page.
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const confirmation = useQuery({
    queryKey: ['verify-email-confirm', token],
    queryFn: () => confirmEmailVerification(token ?? ''),
    enabled: token !== null,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Verify Email</h1>
      {token === null ? (
        <Alert
          variant="destructive"
          title={INCOMPLETE_LINK}
          icon={<CircleAlert aria-hidden="true" />}
        >
          <p>
            Please open the link from the email again, or copy the whole link into the address bar.
          </p>
          <HomeButton />
        </Alert>
      ) : confirmation.isPending ? (
        <PageSpinner label="Checking your link" />
      ) : confirmation.isError ? (
        <Alert
          variant="destructive"
          title="This email address could not be verified"
          icon={<CircleAlert aria-hidden="true" />}
        >
          <p>{confirmation.error.message}</p>
          <HomeButton />
        </Alert>
      ) : (
        <Alert
          variant="success"
          title="Email address verified"
          icon={<CircleCheck aria-hidden="true" />}
        >
          <p>{confirmation.data.message}</p>
          <p>
            <span className="font-semibold break-all">{confirmation.data.email}</span> receives mail
            from Memento. You can close this page.
          </p>
          <HomeButton />
        </Alert>
      )}
    </div>
  );
}

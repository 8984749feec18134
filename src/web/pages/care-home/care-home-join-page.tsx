import { useState } from 'react';
import { Link } from 'react-router';
import { FormErrorAlert } from '@web/components/form-parts';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { acceptStaffInvite } from '@web/features/care-homes/care-homes-api';
import { describeError } from '@web/lib/api-client';
import { useAuth } from '@web/lib/auth-provider';
import { usePageTitle } from '@web/lib/use-page-title';
import { StationPinSection } from './station-section';

const PAGE_TITLE = 'Join a care home’s staff';

/** A staff invitation's link: the token rides in the fragment, which no server ever logs. */
export default function CareHomeJoinPage() {
  usePageTitle(PAGE_TITLE);
  const { user } = useAuth();
  const [token] = useState(() => window.location.hash.slice(1));
  const [joined, setJoined] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function accept() {
    setIsBusy(true);
    setError(null);
    try {
      const { homeName } = await acceptStaffInvite(token);
      // The token is spent: it need not stay in the address bar or the history.
      window.history.replaceState(null, '', window.location.pathname);
      setJoined(homeName);
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{PAGE_TITLE}</h1>
      {!user ? (
        <Alert variant="info" title="Please sign in first">
          <p>
            Sign in with your own Memento account (or create one), then open the link in your
            invitation email again.
          </p>
          <Button asChild className="self-start">
            <Link to="/auth">Sign in</Link>
          </Button>
        </Alert>
      ) : joined ? (
        <>
          <Alert variant="success" title={`You are on ${joined}’s staff`}>
            <p>Your manager can now see you in the staff list.</p>
            <Button asChild className="self-start">
              <Link to="/">Go to Memento</Link>
            </Button>
          </Alert>
          <StationPinSection />
        </>
      ) : (
        <>
          <p className="text-lg">
            You were invited to help residents record video messages for their families. Staff never
            see residents&rsquo; messages.
          </p>
          {error && <FormErrorAlert title="The invitation could not be accepted" message={error} />}
          <Button
            size="lg"
            className="self-start"
            disabled={isBusy || !token}
            onClick={() => void accept()}
          >
            {isBusy ? 'Accepting…' : 'Accept the invitation'}
          </Button>
        </>
      )}
    </div>
  );
}

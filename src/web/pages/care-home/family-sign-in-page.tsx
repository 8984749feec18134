import { careHomeAccent } from '@web/lib/care-home-accent';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { TCareHome } from '@shared/schemas/care-homes';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { PageSpinner } from '@web/components/ui/spinner';
import { describeError } from '@web/lib/api-client';
import { usePageTitle } from '@web/lib/use-page-title';

/**
 * A care home's page for its families: the home's name, logo and colour, then the ordinary
 * recipient sign-in. A letter's code stays in the fragment, passed on to the sign-in untouched.
 */
export default function FamilySignInPage() {
  const { slug = '' } = useParams();
  const {
    data: home,
    isLoading,
    error,
  } = useQuery<TCareHome>({
    queryKey: [`/api/care-homes/${encodeURIComponent(slug)}`],
    retry: false,
  });
  usePageTitle(home ? `${home.name} on Memento` : 'Sign in to watch your messages');
  const accent = careHomeAccent(home?.accentHex);

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6" style={accent}>
      {isLoading && <PageSpinner label="Loading the care home" />}
      {error && (
        <Alert variant="destructive" title="This care home could not be found">
          <p>{describeError(error, 'Please check the address on your letter.')}</p>
        </Alert>
      )}
      {home && (
        <>
          <header className="flex items-center gap-4">
            {home.logoUrl && (
              <img src={home.logoUrl} alt={`${home.name} logo`} className="h-12 w-auto" />
            )}
            <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{home.name}</h1>
          </header>
          <p className="text-lg">
            {home.name} helps its residents record video messages for their families with Memento.
            Sign in with your email and the access code from your letter to watch the messages
            recorded for you.
          </p>
          <Button asChild size="lg" className="self-start">
            <Link to={{ pathname: '/auth', hash: window.location.hash }}>Sign in to watch</Link>
          </Button>
          <p className="text-lg text-muted-foreground">
            Your messages are held by Memento, not by {home.name}: the home never sees them. If you
            do not want to take part, simply do not sign in, or tell {home.name}.
          </p>
        </>
      )}
      <p className="text-lg font-semibold">Powered by Memento</p>
    </div>
  );
}

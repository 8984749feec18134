import { useEffect, useRef, useState } from 'react';
import { CircleAlert } from 'lucide-react';
import { EXTERNAL_PROVIDERS, type TExternalProvider } from '@shared/domain/enums';
import { describeExternalSignInError } from '@shared/domain/external-sign-in-errors';
import { Alert } from '@web/components/ui/alert';
import { Spinner } from '@web/components/ui/spinner';
import { goToProvider } from '../external-sign-in-api';
import { useExternalProviders } from './provider-buttons';

function readProviderId(value: string | null): TExternalProvider | null {
  return (EXTERNAL_PROVIDERS as readonly (string | null)[]).includes(value)
    ? (value as TExternalProvider)
    : null;
}

interface ExternalSignInNoticeProps {
  /** `?signInError=`: why a provider sign-in came back without signing in. */
  errorCode: string | null;
  /** `?signInWith=` (from `GET /auth/{provider}`): start that provider's sign-in at once. */
  startWith: string | null;
  providerId: string | null;
}

/** A provider sign-in's plain-words outcome on /auth, or the hand-over to the provider. */
export function ExternalSignInNotice({
  errorCode,
  startWith,
  providerId,
}: ExternalSignInNoticeProps) {
  const providers = useExternalProviders();
  const startId = readProviderId(startWith);
  const shouldStart = !errorCode && startId !== null && providers.some((p) => p.id === startId);
  const hasStarted = useRef(false);
  const [startError, setStartError] = useState<string | null>(null);

  useEffect(() => {
    if (!shouldStart || hasStarted.current || !startId) return;
    hasStarted.current = true;
    goToProvider(startId).catch((error: unknown) =>
      setStartError(error instanceof Error ? error.message : 'Please try again.'),
    );
  }, [shouldStart, startId]);

  if (shouldStart && !startError) {
    const name = providers.find((p) => p.id === startId)?.name;
    return (
      <div className="flex items-center gap-3 text-lg" role="status">
        <Spinner />
        Taking you to {name}...
      </div>
    );
  }

  const message =
    startError ??
    (errorCode
      ? describeExternalSignInError(
          errorCode,
          providers.find((p) => p.id === readProviderId(providerId))?.name ?? 'your provider',
        )
      : null);
  if (!message) return null;
  return (
    <Alert variant="destructive" title="Not signed in" icon={<CircleAlert aria-hidden="true" />}>
      <p>{message}</p>
    </Alert>
  );
}

import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { PageSpinner } from '@web/components/ui/spinner';
import { USER_QUERY_KEY } from '@web/lib/auth-api';
import { isApiError } from '@web/lib/api-client';
import { SECOND_FACTOR_QUERY_KEY, useSecondFactorStatus } from '../admin-api';
import { EnrolPanel } from './enrol-panel';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { VerifyPanel } from './verify-panel';

/**
 * Nothing of the dashboard shows until this admin has an authenticator app and has given
 * a code in this session. A first visit enrols, then shows the recovery codes once.
 */
export function SecondFactorGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const status = useSecondFactorStatus();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  // An admin session lasts 12 hours and admin rights can be taken away meanwhile: when an
  // admin call says so, ask for a code again, or let the route guard say who may be here.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return;
        const { error } = event.action;
        if (isApiError(error, 'SECOND_FACTOR_REQUIRED')) {
          void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY });
        } else if (isApiError(error, 'FORBIDDEN') || isApiError(error, 'UNAUTHENTICATED')) {
          void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
        }
      }),
    [queryClient],
  );

  async function refreshStatus() {
    await queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_QUERY_KEY });
  }

  if (recoveryCodes) {
    return <RecoveryCodesPanel codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  }
  if (status.isPending) return <PageSpinner label="Checking two-step sign-in" />;
  if (status.isError) {
    return (
      <Alert
        variant="destructive"
        title="We could not check your two-step sign-in"
        icon={<CircleAlert aria-hidden="true" />}
      >
        <p>{status.error.message}</p>
        <div>
          <Button variant="outline" onClick={() => void status.refetch()}>
            Try Again
          </Button>
        </div>
      </Alert>
    );
  }
  if (!status.data.isEnrolled) {
    return (
      <EnrolPanel
        onConfirmed={(codes) => {
          setRecoveryCodes(codes);
          void refreshStatus();
        }}
      />
    );
  }
  if (!status.data.isVerified) {
    return (
      <VerifyPanel recoveryCodesLeft={status.data.recoveryCodesLeft} onVerified={refreshStatus} />
    );
  }
  return children;
}

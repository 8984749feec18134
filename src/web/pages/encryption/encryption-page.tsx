import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { Sparkles } from 'lucide-react';
import { ENCRYPTION_MESSAGES } from '@shared/schemas/encryption';
import type { TUser } from '@shared/schemas/auth';
import { BackHomeLink } from '@web/components/back-home-link';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { ResealSection } from '@web/features/cloud/components/reseal-section';
import { useEncryptionState } from '@web/features/encryption/encryption-api';
import { EncryptionOn } from '@web/features/encryption/components/encryption-on';
import { RecoverySheet } from '@web/features/encryption/components/recovery-sheet';
import {
  TurnOnEncryption,
  type TNewRecoverySheet,
} from '@web/features/encryption/components/turn-on-encryption';
import { describeError } from '@web/lib/api-client';
import { useAuth } from '@web/lib/auth-provider';
import { usePageTitle } from '@web/lib/use-page-title';

const PAGE_TITLE = 'Enhanced encryption';

/**
 * Enhanced encryption for the account holder: turning it on (what changes, the password, the
 * recovery sheet), and once on, unlocking each of their devices to open sealed messages.
 */
export default function EncryptionPage() {
  usePageTitle(PAGE_TITLE);
  const { user, deviceStatus } = useAuth();
  if (!user) return null;
  if (user.category !== 'primary') return <Navigate to="/" replace />;
  const isPrimaryDevice = deviceStatus?.isPrimary ?? user.deviceStatus === 'primary';
  return <EnhancedEncryption user={user} isPrimaryDevice={isPrimaryDevice} />;
}

function EnhancedEncryption({ user, isPrimaryDevice }: { user: TUser; isPrimaryDevice: boolean }) {
  const { data, isLoading, error } = useEncryptionState();
  // Held here, not in the step: the server's answer is already 'on' while the sheet is shown.
  const [sheet, setSheet] = useState<TNewRecoverySheet | null>(null);

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      {/* While the sheet is shown, the way out is 'Done': the code is not shown again. */}
      {!sheet && <BackHomeLink />}
      <div className="flex flex-col gap-2 print:hidden">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{PAGE_TITLE}</h1>
        <p className="text-lg text-muted-foreground">
          Seal your messages in your own browser before they go to the cloud, so that only you can
          open them: with your password, or with your recovery sheet.
        </p>
      </div>
      {sheet ? (
        <RecoverySheet
          email={user.email}
          recoveryCode={sheet.recoveryCode}
          turnedOnAt={sheet.turnedOnAt}
          onDone={() => setSheet(null)}
        />
      ) : isLoading ? (
        <PageSpinner label="Loading enhanced encryption" />
      ) : error || !data ? (
        <Alert variant="destructive" title="Enhanced encryption could not be loaded">
          <p>{describeError(error, 'Please try again.')}</p>
        </Alert>
      ) : data.state === 'on' ? (
        <>
          <EncryptionOn
            userId={user.id}
            username={user.username}
            turnedOnAt={data.turnedOnAt}
            isPasswordWrapCurrent={data.isPasswordWrapCurrent}
          />
          <ResealSection userId={user.id} isPrimaryDevice={isPrimaryDevice} />
        </>
      ) : !data.isOffered ? (
        <NotOffered />
      ) : isPrimaryDevice ? (
        <TurnOnEncryption userId={user.id} onTurnedOn={setSheet} />
      ) : (
        // Messages are sealed where they are recorded, so it is turned on there.
        <Card>
          <CardContent className="pt-6 text-lg sm:pt-8">
            <p>{ENCRYPTION_MESSAGES.primaryDeviceOnly}</p>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function NotOffered() {
  return (
    <Card>
      <CardContent className="flex flex-col gap-4 pt-6 sm:pt-8">
        <p className="text-lg">{ENCRYPTION_MESSAGES.notOnPlan}</p>
        <div>
          <Button asChild size="lg">
            <Link to="/premium">
              <Sparkles aria-hidden="true" />
              See the plans
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

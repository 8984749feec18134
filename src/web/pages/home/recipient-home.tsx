import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Heart, LifeBuoy, LogOut } from 'lucide-react';
import type { TUser } from '@shared/schemas/auth';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { useAuth } from '@web/lib/auth-provider';
import { EMERGENCY_TEXT } from '@web/features/emergency-access/emergency-access-api';
import { NextOfKinEmergencyDialog } from '@web/features/emergency-access/components/next-of-kin-emergency-dialog';
import { useRecipientHome } from '@web/lib/recipients-api';
import { NextOfKinLegacy } from '@web/features/legacy/components/next-of-kin-legacy';
import { WaitingMessages } from '@web/features/legacy/components/waiting-messages';
import { describeError } from '@web/lib/api-client';
import { NoMessagesYet, SharedVideoItem } from './shared-videos';

/** The home view of someone who receives messages (next of kin, family, friend). */
export function RecipientHome({ user }: { user: TUser }) {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const { data, isLoading, error } = useRecipientHome();
  const waiting = data?.waitingMessages ?? [];
  const [isEmergencyOpen, setIsEmergencyOpen] = useState(false);
  const [playingId, setPlayingId] = useState<string | null>(null);
  const isNextOfKin = user.category === 'next_of_kin';
  const ownerFirstName = data?.owner.firstName ?? 'They';
  const ownerName = data ? `${data.owner.firstName} ${data.owner.lastName}` : '';

  function signOut() {
    logout()
      .then(() => navigate('/auth'))
      .catch(() => undefined);
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Welcome, {user.firstName}</h1>
        {data && (
          <p className="text-xl text-muted-foreground">
            These are the video messages {ownerName} has shared with you.
          </p>
        )}
      </div>

      {isLoading && (
        <p role="status" className="flex items-center gap-3 text-lg">
          <Spinner /> Loading your messages...
        </p>
      )}
      {error && (
        <Alert variant="destructive" title="Your messages could not be loaded">
          <p>{describeError(error, 'Please try again.')}</p>
        </Alert>
      )}

      {data && (
        <Card asChild>
          <section aria-labelledby="shared-heading">
            <CardHeader>
              <h2 id="shared-heading" className="flex items-center gap-3 text-2xl font-bold">
                <Heart className="size-6 text-primary" aria-hidden="true" />
                Messages for you
              </h2>
            </CardHeader>
            <CardContent className="flex flex-col gap-4 text-lg">
              <WaitingMessages ownerFirstName={ownerFirstName} messages={waiting} />
              {data.sharedVideos.length > 0 ? (
                <ul className="flex flex-col gap-4">
                  {data.sharedVideos.map((video) => {
                    const title = video.title ?? 'A message';
                    const isPlaying = playingId === video.id;
                    return (
                      <SharedVideoItem
                        key={video.id}
                        video={video}
                        title={title}
                        ownerName={ownerName}
                        isPlaying={isPlaying}
                        onToggle={() => setPlayingId(isPlaying ? null : video.id)}
                      />
                    );
                  })}
                </ul>
              ) : waiting.length > 0 ? null : (
                <NoMessagesYet
                  ownerFirstName={ownerFirstName}
                  ownerHasCloudSync={data.ownerHasCloudSync}
                />
              )}
            </CardContent>
          </section>
        </Card>
      )}

      {isNextOfKin && data?.legacy && (
        <NextOfKinLegacy ownerFirstName={ownerFirstName} legacy={data.legacy} />
      )}

      <div className="flex flex-col gap-3 sm:flex-row">
        {isNextOfKin && (
          <Button variant="outline" onClick={() => setIsEmergencyOpen(true)}>
            <LifeBuoy aria-hidden="true" />
            {EMERGENCY_TEXT.dialogTitle}
          </Button>
        )}
        <Button variant="outline" onClick={signOut}>
          <LogOut aria-hidden="true" />
          Sign Out
        </Button>
      </div>
      {isNextOfKin && (
        <NextOfKinEmergencyDialog open={isEmergencyOpen} onOpenChange={setIsEmergencyOpen} />
      )}
    </div>
  );
}

import { useState } from 'react';
import { Card, CardContent } from '@web/components/ui/card';
import { useSharedWithCareTeam } from '@web/features/care-homes/care-team-api';
import { SharedVideoItem } from '../home/shared-videos';
import { SectionHeading } from './section-heading';

/**
 * For a home's manager and its staff: the messages residents chose to share with the care team,
 * each watched in place through the ordinary player. Nothing shows for anyone else.
 */
export function SharedWithCareTeam() {
  const { data } = useSharedWithCareTeam();
  const [playingId, setPlayingId] = useState<string | null>(null);
  if (!data) return null;
  const { homeName, messages } = data;
  return (
    <Card asChild>
      <section aria-labelledby="care-team-shared-heading">
        <SectionHeading id="care-team-shared-heading" title="Shared with the care team">
          Messages the residents of {homeName} chose to share with you. Each time you watch one, the
          resident&rsquo;s own account notes who watched it.
        </SectionHeading>
        <CardContent className="flex flex-col gap-4 text-lg">
          {messages.length === 0 ? (
            <p>No resident has shared a message with the care team yet.</p>
          ) : (
            <ul className="flex flex-col gap-3" aria-label="Messages shared with the care team">
              {messages.map((message) => (
                <SharedVideoItem
                  key={message.videoId}
                  video={{
                    id: message.videoId,
                    createdAt: message.createdAt,
                    durationMs: message.durationMs,
                  }}
                  title={message.title}
                  ownerName={message.residentName}
                  isPlaying={playingId === message.videoId}
                  onToggle={() =>
                    setPlayingId((current) =>
                      current === message.videoId ? null : message.videoId,
                    )
                  }
                />
              ))}
            </ul>
          )}
        </CardContent>
      </section>
    </Card>
  );
}

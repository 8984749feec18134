import { useState, type ReactNode } from 'react';
import { careHomeAccent } from '@web/lib/care-home-accent';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TMyCareHome } from '@shared/schemas/care-homes';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { describeError } from '@web/lib/api-client';
import { useAfterFirstPaint } from '@web/lib/use-after-first-paint';
import { MY_CARE_HOME_KEY, setMyPause } from '../care-homes-api';

/**
 * On a resident's own dashboard: the home they live at, in its colours, and one button that
 * pauses Memento for them at the home's tablets, or turns it back on; below it, what `children`
 * adds (what they share with the care team). Nothing for anyone else.
 */
export function MyCareHomeCard({ children }: { children?: ReactNode }) {
  const isPainted = useAfterFirstPaint();
  const queryClient = useQueryClient();
  const { data } = useQuery<TMyCareHome>({ queryKey: MY_CARE_HOME_KEY, enabled: isPainted });
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const home = data?.home;
  if (!home) return null;
  const accent = careHomeAccent(home.accentHex);

  async function toggle(paused: boolean) {
    setIsBusy(true);
    setError(null);
    try {
      await setMyPause(paused);
      await queryClient.invalidateQueries({ queryKey: MY_CARE_HOME_KEY });
    } catch (reason) {
      setError(describeError(reason, 'Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Card asChild style={accent}>
      <section aria-labelledby="my-care-home-heading">
        <CardHeader className="flex-row items-center gap-4">
          {home.logoUrl && <img src={home.logoUrl} alt="" className="h-12 w-auto" />}
          <h2 id="my-care-home-heading" className="text-2xl font-bold tracking-tight">
            {home.name}
          </h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 text-lg">
          <p>
            You live at {home.name}. Its carers can help you record messages on the home’s tablets;
            they see only the messages you share with the care team.
          </p>
          <p role="status" className="font-semibold">
            {data.paused
              ? `Memento is paused for you: ${home.name}’s tablets do not offer you for recording.`
              : `${home.name}’s tablets offer you for recording.`}
          </p>
          <div>
            <Button
              size="lg"
              variant={data.paused ? 'default' : 'outline'}
              disabled={isBusy}
              onClick={() => void toggle(!data.paused)}
            >
              {data.paused ? 'Turn Memento back on for me' : 'Pause Memento for me'}
            </Button>
          </div>
          {error && (
            <p role="alert" className="font-semibold text-destructive">
              {error}
            </p>
          )}
          {children}
          <p className="text-muted-foreground">Powered by Memento</p>
        </CardContent>
      </section>
    </Card>
  );
}

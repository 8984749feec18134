import { Link } from 'react-router';
import { ArrowRightLeft } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';

/** On the dashboard: the way to move messages from this device, or to receive them here. */
export function MoveMessagesCard() {
  return (
    <Card asChild>
      <section aria-labelledby="move-messages-heading">
        <CardHeader>
          <h2
            id="move-messages-heading"
            className="flex items-center gap-3 text-xl font-bold tracking-tight sm:text-2xl"
          >
            <ArrowRightLeft className="size-6 text-primary" aria-hidden="true" />
            Getting a new device?
          </h2>
          <CardDescription>
            Your messages can go straight from this device to the new one, on the same Wi-Fi,
            without the cloud.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 sm:flex-row">
          <Button asChild size="lg" variant="outline">
            <Link to="/move-messages">Move my messages to a new device</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/receive-messages">Receive messages from my old device</Link>
          </Button>
        </CardContent>
      </section>
    </Card>
  );
}

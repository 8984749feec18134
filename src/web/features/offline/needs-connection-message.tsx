import { CloudOff } from 'lucide-react';
import { OFFLINE_MESSAGES } from './offline-messages';

export default function NeedsConnectionMessage() {
  return (
    <section
      aria-labelledby="needs-connection"
      className="mx-auto flex w-full max-w-2xl flex-col items-center gap-4 rounded-xl border-2 border-warm-foreground/25 bg-warm p-8 text-center"
    >
      <CloudOff className="size-10 text-warm-foreground" aria-hidden="true" />
      <h1 id="needs-connection" className="text-2xl font-bold tracking-tight">
        {OFFLINE_MESSAGES.needsConnection}
      </h1>
    </section>
  );
}

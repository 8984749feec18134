import { Mic } from 'lucide-react';

const BARS = 12;

/** A live microphone level, so the person can see they are being heard before they start. */
export function AudioLevelMeter({ level }: { level: number }) {
  const lit = Math.round(level * BARS);
  return (
    <div className="flex items-center gap-3">
      <Mic className="size-5 shrink-0 text-primary" aria-hidden="true" />
      <span className="text-base text-muted-foreground">Microphone</span>
      <div
        role="meter"
        aria-label="Microphone level"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(level * 100)}
        className="flex h-5 flex-1 items-end gap-1"
        data-testid="audio-level"
      >
        {Array.from({ length: BARS }, (_, index) => (
          <span
            key={index}
            className={
              index < lit
                ? index >= BARS - 2
                  ? 'h-full flex-1 rounded-sm bg-warm-foreground'
                  : 'h-full flex-1 rounded-sm bg-success'
                : 'h-full flex-1 rounded-sm bg-muted'
            }
          />
        ))}
      </div>
    </div>
  );
}

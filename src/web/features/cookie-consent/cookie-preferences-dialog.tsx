import { useId, useState, type ReactNode } from 'react';
import { ShieldCheck } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { Label } from '@web/components/ui/label';
import { Switch } from '@web/components/ui/switch';
import { saveConsent, type TConsentChoices } from './consent-store';

interface ConsentRowProps {
  label: string;
  description: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onCheckedChange?: (checked: boolean) => void;
}

function ConsentRow({ label, description, checked, disabled, onCheckedChange }: ConsentRowProps) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border border-border bg-background p-4">
      <div className="flex flex-col gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-base text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch
        id={id}
        checked={checked}
        disabled={disabled}
        onCheckedChange={onCheckedChange}
        aria-describedby={`${id}-description`}
        className="mt-1"
      />
    </div>
  );
}

export interface ConsentFormProps {
  initial: TConsentChoices;
  hasAnalytics: boolean;
}

/** Cookie settings, opened from the banner or the footer; loaded when first opened. */
export function CookiePreferencesDialog({ initial, hasAnalytics }: ConsentFormProps) {
  const [choices, setChoices] = useState<TConsentChoices>(initial);

  return (
    <Dialog
      open
      onOpenChange={(isOpen) => {
        // Closing the dialog keeps the choices as they stand (essential only by default).
        if (!isOpen) saveConsent(choices);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cookie Preferences</DialogTitle>
          <DialogDescription>
            Memento keeps only what it needs to work. You can change your choice at any time with
            the Cookie preferences link at the foot of each page.
          </DialogDescription>
        </DialogHeader>

        {!hasAnalytics && (
          <p className="flex items-start gap-3 rounded-lg bg-primary-soft p-4 font-semibold">
            <ShieldCheck className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
            This Memento uses no analytics or tracking cookies.
          </p>
        )}

        <div className="flex flex-col gap-3">
          <ConsentRow
            label="Essential"
            checked
            disabled
            description="Keep you signed in and remember this device. Always on."
          />
          <ConsentRow
            label="Analytics"
            checked={choices.analytics}
            onCheckedChange={(analytics) => setChoices((current) => ({ ...current, analytics }))}
            description={
              hasAnalytics
                ? 'Let the people who run this Memento count which pages are visited. Loaded only if you switch this on.'
                : 'None is used here. Your choice is kept in case that changes.'
            }
          />
          <ConsentRow
            label="Marketing"
            checked={choices.marketing}
            onCheckedChange={(marketing) => setChoices((current) => ({ ...current, marketing }))}
            description="No adverts from others and no marketing cookies. Your choice is kept in case that changes."
          />
        </div>

        {/* On a phone the choices scroll; the two buttons stay in reach at the bottom. */}
        <DialogFooter className="sticky -bottom-5 -mx-5 -mb-5 border-t border-border bg-card p-5 sm:static sm:m-0 sm:border-0 sm:p-0">
          <Button variant="outline" onClick={() => saveConsent(choices)}>
            Save Preferences
          </Button>
          <Button onClick={() => saveConsent({ analytics: true, marketing: true })}>
            Accept All
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

import { useEffect, useId, useState, type ReactNode } from 'react';
import { ShieldCheck } from 'lucide-react';
import { useLocation } from 'react-router';
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
import { useAppConfig } from '@web/features/config/config-api';
import {
  openCookiePreferences,
  saveConsent,
  useCookieConsent,
  useIsCookieBannerReleasedOnSupport,
  useIsCookieDialogRequested,
  type TConsentChoices,
} from './consent-store';

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

interface ConsentFormProps {
  initial: TConsentChoices;
  hasAnalytics: boolean;
}

function ConsentDialogContent({ initial, hasAnalytics }: ConsentFormProps) {
  const [choices, setChoices] = useState<TConsentChoices>(initial);

  return (
    <Dialog
      open
      onOpenChange={(isOpen) => {
        // SPEC §4: closing the dialog keeps the choices as they stand (essential only by default).
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

/** Adds the optional self-hosted analytics script once, and only with consent (DESIGN D25). */
function useAnalyticsScript(scriptUrl: string | null | undefined, isAllowed: boolean) {
  useEffect(() => {
    if (!scriptUrl || !isAllowed) return;
    if (document.querySelector('script[data-analytics]')) return;
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.defer = true;
    script.dataset.analytics = 'true';
    document.head.appendChild(script);
  }, [scriptUrl, isAllowed]);
}

/**
 * The first visit's question, as GOV.UK asks it: a compact banner in the page's flow that takes
 * no focus and covers nothing (issue 17). The full settings (SPEC's dialog) are one tap away.
 */
function CookieBanner({ hasAnalytics }: { hasAnalytics: boolean }) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      // A rendered page carries the banner; a visitor who has answered never sees it (styles.css).
      data-cookie-banner=""
      className="border-b-2 border-primary/30 bg-primary-soft px-4 py-4 sm:px-6"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
        <div className="flex flex-col gap-1">
          <h2 id={headingId} className="text-xl font-bold">
            Cookies on Memento
          </h2>
          <p className="text-lg">
            {hasAnalytics
              ? 'We keep what Memento needs to work. With your permission we also count which pages are visited.'
              : 'We keep only what Memento needs to work: staying signed in and remembering this device. This Memento uses no analytics or tracking cookies.'}
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => saveConsent({ analytics: true, marketing: true })}>
            Accept All
          </Button>
          <Button
            variant="outline"
            onClick={() => saveConsent({ analytics: false, marketing: false })}
          >
            Essential Only
          </Button>
          <Button variant="outline" onClick={openCookiePreferences}>
            Choose Cookies
          </Button>
        </div>
      </div>
    </section>
  );
}

/** Someone may open Support in distress: the banner waits there until the numbers are passed. */
const SUPPORT_PATH = '/support';

/** Asks once for cookie choices (SPEC §2, §4), and honours them. */
export function CookieConsent() {
  const consent = useCookieConsent();
  const isRequested = useIsCookieDialogRequested();
  const isOnSupport = useLocation().pathname === SUPPORT_PATH;
  const isReleasedOnSupport = useIsCookieBannerReleasedOnSupport();
  const isBannerHeld = isOnSupport && !isReleasedOnSupport;
  const config = useAppConfig();
  useAnalyticsScript(config.data?.analyticsScriptUrl, consent?.analytics === true);

  if (config.isPending) return null;
  const hasAnalytics = Boolean(config.data?.analyticsScriptUrl);
  if (isRequested) {
    return (
      <ConsentDialogContent
        initial={{ analytics: consent?.analytics ?? false, marketing: consent?.marketing ?? false }}
        hasAnalytics={hasAnalytics}
      />
    );
  }
  if (consent === null && !isBannerHeld) return <CookieBanner hasAnalytics={hasAnalytics} />;
  return null;
}

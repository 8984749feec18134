import { useEffect, useRef } from 'react';
import { ArrowRight, CircleCheck, Printer, ShieldAlert } from 'lucide-react';
import { formatCode } from '@shared/domain/codes';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { saveWelcomeToast } from '../onboarding-api';
import type { TOnboardedNextOfKin } from './use-complete-onboarding';

interface OnboardingCompleteProps {
  nextOfKin: TOnboardedNextOfKin;
  ownerName: string;
}

/**
 * The next of kin's code, shown to its owner this once, to write down or print: a mistyped
 * next-of-kin email must not leave the safety net dead.
 * Printing shows only the code card (the `print-only-area` rule in styles.css).
 */
export function OnboardingComplete({ nextOfKin, ownerName }: OnboardingCompleteProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const groups = formatCode(nextOfKin.emergencyAccessCode).split('-');
  const signInPage = `${window.location.origin}/auth`;
  const nextOfKinName = `${nextOfKin.firstName} ${nextOfKin.lastName}`;

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  function continueToMemento() {
    saveWelcomeToast({ nextOfKinFirstName: nextOfKin.firstName });
    window.location.assign('/');
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-3 print:hidden">
        <p className="flex items-center gap-2 font-semibold text-success">
          <CircleCheck className="size-6" aria-hidden="true" />
          Setup complete
        </p>
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="text-3xl font-bold tracking-tight outline-none sm:text-4xl"
        >
          {nextOfKin.firstName}&rsquo;s emergency code
        </h1>
        <p className="text-lg">
          Write this down and keep it somewhere safe.{' '}
          {nextOfKin.isCard
            ? 'It is not emailed: Memento cannot send or show it again.'
            : `${nextOfKin.firstName} has also been sent it by email.`}
        </p>
      </div>

      <Card asChild className="print-only-area border-2 border-primary/40">
        <section aria-labelledby="emergency-code-title">
          <CardContent className="flex flex-col gap-5 pt-6 sm:pt-8">
            <div className="flex flex-col gap-1">
              <h2 id="emergency-code-title" className="text-xl font-bold sm:text-2xl">
                Memento emergency code
              </h2>
              <p className="text-muted-foreground">
                For {nextOfKinName} ({nextOfKin.email}), next of kin of {ownerName}
              </p>
            </div>
            <p
              data-testid="emergency-code"
              className="rounded-lg bg-muted px-3 py-5 text-center font-mono text-[1.75rem] leading-snug font-bold tracking-wider text-foreground sm:text-4xl"
            >
              {/* Lines break only between groups, never inside one. */}
              {groups.map((group, index) => (
                <span key={index} className="inline-block whitespace-nowrap">
                  {index < groups.length - 1 ? `${group}-` : group}
                </span>
              ))}
            </p>
            <p>
              With this code and their email address, {nextOfKin.firstName} can set a new password
              for the account on Memento&rsquo;s sign-in page,{' '}
              <span className="break-all">{signInPage}</span>, under &ldquo;Emergency access for
              next of kin&rdquo;. Every use is recorded and emailed to {ownerName}.
            </p>
            <div className="flex items-start gap-3 rounded-lg bg-warm p-4">
              <ShieldAlert
                className="mt-0.5 size-6 shrink-0 text-warm-foreground"
                aria-hidden="true"
              />
              <p>
                This code can reset the password, so share it only privately with{' '}
                {nextOfKin.firstName}. Memento shows it only this once.
              </p>
            </div>
          </CardContent>
        </section>
      </Card>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between print:hidden">
        <Button variant="outline" size="lg" onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Print this page
        </Button>
        <Button size="lg" onClick={continueToMemento}>
          Continue to Memento
          <ArrowRight aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

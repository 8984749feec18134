import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { Printer } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { CheckboxField } from '@web/components/ui/checkbox-field';
import { lazyDateFormat } from '@web/lib/date-format';

const dateFormat = lazyDateFormat(undefined, { dateStyle: 'long' });

export const RECOVERY_SHEET_TEXT = {
  confirm: 'I have printed or written down my recovery sheet',
  purpose:
    'If you forget your password, or a new device needs to open your sealed messages, this code opens them. Keep it with your important papers, where your family could find it. Do not send it by email or show it to anyone you do not trust.',
  howToUse:
    'Sign in to Memento, open Enhanced encryption from your home page, choose ‘Use my recovery sheet instead’ and type the code, group by group.',
} as const;

/**
 * The last step: the recovery code, shown this once, large and in groups, as a sheet that prints
 * alone (the page's `print-only-area`): the account, the date, the code and what it is for.
 * 'Done' waits for the person to say they have kept it.
 */
export function RecoverySheet({
  email,
  recoveryCode,
  turnedOnAt,
  onDone,
}: {
  email: string;
  recoveryCode: string;
  turnedOnAt: string;
  onDone: () => void;
}) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [isKept, setIsKept] = useState(false);
  const groups = recoveryCode.split('-');

  useEffect(() => {
    headingRef.current?.focus();
    // Leaving before it is kept would lose the only copy: the browser asks first.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  return (
    <Card asChild>
      <section
        aria-labelledby={headingId}
        className="print-only-area print:border-0 print:shadow-none"
      >
        <CardHeader>
          <p className="text-lg font-semibold text-primary print:hidden">Step 3 of 3</p>
          <h2
            id={headingId}
            ref={headingRef}
            tabIndex={-1}
            className="text-2xl font-bold tracking-tight outline-none sm:text-3xl"
          >
            Your Memento recovery sheet
          </h2>
          <p className="text-lg print:hidden">
            Enhanced encryption is on. This code is shown only this once: print this sheet, or write
            the code down carefully, before you go on.
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-lg">
            <dt className="text-muted-foreground">Account</dt>
            <dd className="font-semibold break-all">{email}</dd>
            <dt className="text-muted-foreground">Made on</dt>
            <dd className="font-semibold">{dateFormat.format(new Date(turnedOnAt))}</dd>
            <dt className="text-muted-foreground">Memento</dt>
            <dd className="font-semibold break-all">{window.location.host}</dd>
          </dl>
          <div className="flex flex-col gap-2">
            <p className="text-lg font-semibold">Recovery code</p>
            <p
              data-testid="recovery-code"
              className="grid grid-cols-2 gap-3 rounded-lg border-2 border-border bg-muted p-4 text-center font-mono text-3xl font-bold tracking-widest sm:grid-cols-3 sm:text-4xl print:grid-cols-3 print:bg-transparent"
            >
              {groups.map((group, index) => (
                // A space between groups in the text itself, so it reads and copies as groups.
                <Fragment key={index}>
                  {index > 0 && ' '}
                  {/* The group's number as a picture only (not copied, not in the code's text):
                      a mistyped code is told which group to look at again. */}
                  <span
                    data-group={index + 1}
                    className="flex items-center justify-center gap-3 rounded-md bg-card px-2 py-2 before:font-sans before:text-lg before:font-normal before:tracking-normal before:text-muted-foreground before:content-[attr(data-group)]"
                  >
                    {group}
                  </span>
                </Fragment>
              ))}
            </p>
          </div>
          <div className="flex flex-col gap-1">
            <p className="text-lg font-semibold">What it is for</p>
            <p className="text-lg">{RECOVERY_SHEET_TEXT.purpose}</p>
          </div>
          <div className="flex flex-col gap-1">
            <p className="text-lg font-semibold">How to use it</p>
            <p className="text-lg">{RECOVERY_SHEET_TEXT.howToUse}</p>
          </div>
          <div className="flex flex-col gap-5 print:hidden">
            <div>
              <Button size="lg" variant="outline" onClick={() => window.print()}>
                <Printer aria-hidden="true" />
                Print recovery sheet
              </Button>
            </div>
            <CheckboxField checked={isKept} onCheckedChange={setIsKept}>
              {RECOVERY_SHEET_TEXT.confirm}
            </CheckboxField>
            <div>
              <Button size="lg" disabled={!isKept} onClick={onDone}>
                Done
              </Button>
            </div>
          </div>
        </CardContent>
      </section>
    </Card>
  );
}

import { useEffect, useRef, useState, type FormEvent, type Ref } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, ArrowRight } from 'lucide-react';
import { ZCreateRecipientBody, type TCreateRecipientBody } from '@shared/schemas/recipients';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { EmergencyAccessStep } from './emergency-access-step';
import { NextOfKinStep } from './next-of-kin-step';
import { ReviewStep } from './review-step';
import { WhyThisMattersStep } from './why-this-matters-step';
import {
  LAST_STEP,
  NEXT_OF_KIN_FIELDS,
  ONBOARDING_STEPS,
  STEPS_BEFORE_REVIEW,
} from './onboarding-steps';
import { StepProgress } from './step-progress';
import { useCompleteOnboarding, type TOnboardedNextOfKin } from './use-complete-onboarding';

const STEP_HINTS = [
  'Tick both boxes to continue.',
  'Fill in all five fields to continue.',
  'Tick both boxes to continue.',
  'Please finish the earlier steps first.',
] as const;

function setAt(values: readonly boolean[], index: number, value: boolean): boolean[] {
  return values.map((current, i) => (i === index ? value : current));
}

function useNextOfKinForm() {
  return useForm<TCreateRecipientBody>({
    resolver: zodResolver(ZCreateRecipientBody),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      phoneNumber: '',
      relationship: '',
      category: 'next_of_kin',
    },
  });
}

/** 'Step 2 of 4' and the step's title, where focus lands when the step changes. */
function StepHeading({ ref, step }: { ref: Ref<HTMLHeadingElement>; step: number }) {
  return (
    <CardHeader>
      <p className="text-base font-semibold text-primary">
        Step {step + 1} of {ONBOARDING_STEPS.length}
      </p>
      <h2
        id="onboarding-step-title"
        ref={ref}
        tabIndex={-1}
        className="text-2xl font-bold tracking-tight outline-none sm:text-3xl"
      >
        {ONBOARDING_STEPS[step]}
      </h2>
    </CardHeader>
  );
}

interface OnboardingWizardProps {
  onCompleted: (nextOfKin: TOnboardedNextOfKin) => void;
}

/** The four-step setup, ending with the next of kin saved and the code issued. */
export function OnboardingWizard({ onCompleted }: OnboardingWizardProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const hasMoved = useRef(false);
  const [step, setStep] = useState(0);
  const [completed, setCompleted] = useState<ReadonlySet<number>>(new Set());
  const [acknowledged, setAcknowledged] = useState([false, false]);
  const [confirmed, setConfirmed] = useState([false, false]);

  const { register, control, trigger, getValues, setError, handleSubmit } = useNextOfKinForm();
  const nextOfKin = useWatch({ control }) as TCreateRecipientBody;

  function goTo(next: number) {
    hasMoved.current = true;
    setStep(next);
  }

  const complete = useCompleteOnboarding({ onCompleted, setError, goTo });

  useEffect(() => {
    // Each step starts at its heading, for keyboard and screen-reader users alike.
    if (!hasMoved.current) return;
    headingRef.current?.focus();
    headingRef.current?.scrollIntoView({ block: 'nearest' });
  }, [step]);

  const isFilled = NEXT_OF_KIN_FIELDS.every((field) => (nextOfKin[field] ?? '').trim() !== '');
  const canContinue =
    [acknowledged.every(Boolean), isFilled, confirmed.every(Boolean), true][step] ?? false;
  const completedBeforeReview = [...completed].filter((done) => done < LAST_STEP).length;
  const canComplete = completedBeforeReview >= STEPS_BEFORE_REVIEW && !complete.isPending;

  async function continueToNext() {
    if (!canContinue) return;
    if (step === 1) {
      const isValid = await trigger([...NEXT_OF_KIN_FIELDS], { shouldFocus: true });
      if (!isValid) return;
    }
    setCompleted((done) => new Set(done).add(step));
    goTo(Math.min(step + 1, LAST_STEP));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Enter in a field of an earlier step means 'Continue', never 'Complete Setup'.
    if (step < LAST_STEP) {
      void continueToNext();
      return;
    }
    if (!canComplete) return;
    void handleSubmit(
      (values) => complete.mutate(values),
      () => goTo(1),
    )(event);
  }

  const firstName = (nextOfKin.firstName ?? '').trim() || 'your next of kin';
  const isHintShown = step < LAST_STEP ? !canContinue : !canComplete && !complete.isPending;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Setting up Memento</h1>
        <p className="text-lg text-muted-foreground">
          Four short steps to make sure the right person can always reach your messages.
        </p>
      </div>

      <StepProgress step={step} completed={completed} />

      <Card asChild>
        <form noValidate onSubmit={onSubmit} aria-labelledby="onboarding-step-title">
          <StepHeading ref={headingRef} step={step} />
          <CardContent className="flex flex-col gap-8">
            {step === 0 && (
              <WhyThisMattersStep
                acknowledged={acknowledged}
                onAcknowledge={(index, checked) =>
                  setAcknowledged((values) => setAt(values, index, checked))
                }
              />
            )}
            {step === 1 && <NextOfKinStep control={control} register={register} />}
            {step === 2 && (
              <EmergencyAccessStep
                nextOfKinFirstName={firstName}
                nextOfKinEmail={(nextOfKin.email ?? '').trim()}
                confirmed={confirmed}
                onConfirm={(index, checked) =>
                  setConfirmed((values) => setAt(values, index, checked))
                }
              />
            )}
            {step === 3 && <ReviewStep nextOfKin={getValues()} onEditNextOfKin={() => goTo(1)} />}

            <WizardButtons
              step={step}
              isHintShown={isHintShown}
              canContinue={canContinue}
              canComplete={canComplete}
              isPending={complete.isPending}
              onPrevious={() => goTo(step - 1)}
            />
          </CardContent>
        </form>
      </Card>
    </div>
  );
}

interface WizardButtonsProps {
  step: number;
  isHintShown: boolean;
  canContinue: boolean;
  canComplete: boolean;
  isPending: boolean;
  onPrevious: () => void;
}

/** What is still needed, 'Previous', and 'Continue' or, on the last step, 'Complete Setup'. */
function WizardButtons({
  step,
  isHintShown,
  canContinue,
  canComplete,
  isPending,
  onPrevious,
}: WizardButtonsProps) {
  return (
    <div className="flex flex-col gap-3 border-t border-border pt-6">
      {isHintShown && (
        <p id="onboarding-hint" className="text-base text-muted-foreground sm:text-right">
          {STEP_HINTS[step]}
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        {step > 0 ? (
          <Button variant="outline" size="lg" onClick={onPrevious} disabled={isPending}>
            <ArrowLeft aria-hidden="true" />
            Previous
          </Button>
        ) : (
          <span className="hidden sm:block" />
        )}
        {step < LAST_STEP ? (
          <Button
            type="submit"
            size="lg"
            disabled={!canContinue}
            aria-describedby={isHintShown ? 'onboarding-hint' : undefined}
          >
            Continue
            <ArrowRight aria-hidden="true" />
          </Button>
        ) : (
          <Button
            type="submit"
            size="lg"
            disabled={!canComplete}
            aria-describedby={isHintShown ? 'onboarding-hint' : undefined}
          >
            {isPending ? 'Setting Up...' : 'Complete Setup'}
          </Button>
        )}
      </div>
    </div>
  );
}

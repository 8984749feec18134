import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight, Check } from 'lucide-react';
import {
  ZCreateRecipientBody,
  type TCreateRecipientBody,
  type TRecipientCreated,
} from '@shared/schemas/recipients';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { toast } from '@web/components/ui/use-toast';
import { cacheUser, USER_QUERY_KEY } from '@web/lib/auth-api';
import { useAuth } from '@web/lib/auth-provider';
import { isApiError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';
import { completeOnboarding, createRecipient } from '../onboarding-api';
import { EmergencyAccessStep } from './emergency-access-step';
import { NextOfKinStep } from './next-of-kin-step';
import { ReviewStep } from './review-step';
import { WhyThisMattersStep } from './why-this-matters-step';

/** The step titles, in order. */
export const ONBOARDING_STEPS = [
  'Why This Matters',
  'Next of Kin Registration',
  'Emergency Access Setup',
  'Review & Confirm',
] as const;
const LAST_STEP = ONBOARDING_STEPS.length - 1;
/** 'Complete Setup' needs the three steps before the review done. */
const STEPS_BEFORE_REVIEW = 3;

export const ONBOARDING_TEXT = {
  notAuthenticated: 'User not authenticated. Please log in again.',
  failed: 'Failed to complete onboarding',
} as const;

const NEXT_OF_KIN_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'relationship',
] as const;
type TNextOfKinField = (typeof NEXT_OF_KIN_FIELDS)[number];

const STEP_HINTS = [
  'Tick both boxes to continue.',
  'Fill in all five fields to continue.',
  'Tick both boxes to continue.',
  'Please finish the earlier steps first.',
] as const;

function isNextOfKinField(name: string): name is TNextOfKinField {
  return (NEXT_OF_KIN_FIELDS as readonly string[]).includes(name);
}

function setAt(values: readonly boolean[], index: number, value: boolean): boolean[] {
  return values.map((current, i) => (i === index ? value : current));
}

interface OnboardingWizardProps {
  onCompleted: (nextOfKin: TRecipientCreated) => void;
}

/** The four-step setup, ending with the next of kin saved and the code issued. */
export function OnboardingWizard({ onCompleted }: OnboardingWizardProps) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const hasMoved = useRef(false);
  const [step, setStep] = useState(0);
  const [completed, setCompleted] = useState<ReadonlySet<number>>(new Set());
  const [acknowledged, setAcknowledged] = useState([false, false]);
  const [confirmed, setConfirmed] = useState([false, false]);
  // A retry after the next of kin was saved but setup not finished reuses that answer, so the
  // next of kin is not sent a second code for the same details.
  const saved = useRef<{ key: string; recipient: TRecipientCreated } | null>(null);

  const { register, control, trigger, getValues, setError, handleSubmit } =
    useForm<TCreateRecipientBody>({
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
  const nextOfKin = useWatch({ control }) as TCreateRecipientBody;

  const complete = useMutation({
    mutationFn: async (values: TCreateRecipientBody) => {
      if (!user?.id) throw new Error(ONBOARDING_TEXT.notAuthenticated);
      const body: TCreateRecipientBody = { ...values, category: 'next_of_kin' };
      const key = JSON.stringify(body);
      let recipient = saved.current?.key === key ? saved.current.recipient : null;
      if (!recipient) {
        recipient = await createRecipient(body);
        saved.current = { key, recipient };
      }
      const result = await completeOnboarding();
      if (!result?.ok) throw new Error(ONBOARDING_TEXT.failed);
      return { recipient, user: result.user };
    },
    onSuccess: ({ recipient, user: updated }) => {
      onCompleted(recipient);
      queryClient.setQueryData(USER_QUERY_KEY, updated);
      cacheUser(updated);
      void queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
    },
    onError: (error) => {
      let description = error.message || ONBOARDING_TEXT.failed;
      if (isApiError(error, 'UNAUTHENTICATED')) description = ONBOARDING_TEXT.notAuthenticated;
      if (isApiError(error) && error.fields) {
        let hasFieldError = false;
        for (const [field, message] of Object.entries(error.fields)) {
          if (!isNextOfKinField(field)) continue;
          setError(field, { message });
          hasFieldError = true;
        }
        if (hasFieldError) goTo(1);
      }
      toast({ variant: 'destructive', title: 'Error', description });
    },
  });

  useEffect(() => {
    // Each step starts at its heading, for keyboard and screen-reader users alike.
    if (!hasMoved.current) return;
    headingRef.current?.focus();
    headingRef.current?.scrollIntoView({ block: 'nearest' });
  }, [step]);

  function goTo(next: number) {
    hasMoved.current = true;
    setStep(next);
  }

  const isFilled = NEXT_OF_KIN_FIELDS.every((field) => (nextOfKin[field] ?? '').trim() !== '');
  const canContinue = [acknowledged.every(Boolean), isFilled, confirmed.every(Boolean), true][step];
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
  const title = ONBOARDING_STEPS[step];
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
          <CardHeader>
            <p className="text-base font-semibold text-primary">
              Step {step + 1} of {ONBOARDING_STEPS.length}
            </p>
            <h2
              id="onboarding-step-title"
              ref={headingRef}
              tabIndex={-1}
              className="text-2xl font-bold tracking-tight outline-none sm:text-3xl"
            >
              {title}
            </h2>
          </CardHeader>
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

            <div className="flex flex-col gap-3 border-t border-border pt-6">
              {isHintShown && (
                <p id="onboarding-hint" className="text-base text-muted-foreground sm:text-right">
                  {STEP_HINTS[step]}
                </p>
              )}
              <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
                {step > 0 ? (
                  <Button
                    variant="outline"
                    size="lg"
                    onClick={() => goTo(step - 1)}
                    disabled={complete.isPending}
                  >
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
                    {complete.isPending ? 'Setting Up...' : 'Complete Setup'}
                  </Button>
                )}
              </div>
            </div>
          </CardContent>
        </form>
      </Card>
    </div>
  );
}

function StepProgress({ step, completed }: { step: number; completed: ReadonlySet<number> }) {
  const total = ONBOARDING_STEPS.length;
  const done = completed.size;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3 text-base">
        <span id="onboarding-progress-label" className="font-semibold">
          Setup progress
        </span>
        <span className="text-muted-foreground">
          {done} of {total} steps done
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="onboarding-progress-label"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} steps done`}
        className="h-3 w-full overflow-hidden rounded-full bg-border"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-300"
          style={{ width: `${(done / total) * 100}%` }}
        />
      </div>
      <ol className="hidden gap-2 sm:grid sm:grid-cols-4" aria-label="Steps">
        {ONBOARDING_STEPS.map((name, index) => {
          const isDone = completed.has(index);
          const isCurrent = index === step;
          return (
            <li
              key={name}
              aria-current={isCurrent ? 'step' : undefined}
              className={cn(
                'flex items-start gap-2 text-base leading-snug',
                isCurrent ? 'font-semibold text-foreground' : 'text-muted-foreground',
              )}
            >
              <span
                className={cn(
                  'inline-flex size-8 shrink-0 items-center justify-center rounded-full border-2 text-base font-bold',
                  isDone
                    ? 'border-primary bg-primary text-primary-foreground'
                    : isCurrent
                      ? 'border-primary text-primary'
                      : 'border-input',
                )}
                aria-hidden="true"
              >
                {isDone ? <Check className="size-4" strokeWidth={3} /> : index + 1}
              </span>
              <span>
                {name}
                <span className="sr-only">
                  {isDone ? ' (done)' : isCurrent ? ' (current)' : ''}
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

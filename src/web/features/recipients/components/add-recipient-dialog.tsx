import { useEffect, useLayoutEffect, useState } from 'react';
import { useForm, useWatch, type FieldError, type UseFormRegister } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  RECIPIENT_CATEGORY_LABELS,
  ZAddRecipientForm,
  type TAddRecipientForm,
  type TRecipientCreated,
} from '@shared/schemas/recipients';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { NextOfKinContactFields, PersonFields } from '@web/components/person-fields';
import { isApiError } from '@web/lib/api-client';
import { useAuth } from '@web/lib/auth-provider';
import {
  cardForNewRecipient,
  findCardReadiness,
  LockedDeviceError,
} from '@web/lib/encryption/owner-cards';
import { cn } from '@web/lib/utils';
import { addRecipient } from '@web/lib/recipients-api';
import { LockedDeviceAlert } from './card-parts';

const CATEGORY_HINTS = {
  next_of_kin: 'Holds an emergency code for your account',
  family: 'A relative you record messages for',
  friend: 'A friend you record messages for',
} as const;

const EMPTY: TAddRecipientForm = {
  firstName: '',
  lastName: '',
  email: '',
  category: '' as TAddRecipientForm['category'],
  phoneNumber: '',
  relationship: '',
};

interface CategoryFieldProps {
  register: UseFormRegister<TAddRecipientForm>;
  category: TAddRecipientForm['category'];
  error: FieldError | undefined;
}

/** Next of kin, family or friend, each with what it means. */
function CategoryField({ register, category, error }: CategoryFieldProps) {
  return (
    <fieldset
      className="flex flex-col gap-3"
      aria-describedby={error ? 'category-error' : undefined}
    >
      <legend className="mb-2 font-semibold">
        Category
        <span aria-hidden="true" className="ml-1 text-destructive">
          *
        </span>
      </legend>
      <div className="grid gap-3 sm:grid-cols-3">
        {(['next_of_kin', 'family', 'friend'] as const).map((value) => (
          <label
            key={value}
            className={cn(
              'flex min-h-14 cursor-pointer items-start gap-3 rounded-xl border-2 p-3',
              'has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-ring/40',
              category === value ? 'border-primary bg-primary/5' : 'border-border',
            )}
          >
            <input
              type="radio"
              value={value}
              className="mt-1 size-5 shrink-0 accent-[var(--color-primary)]"
              {...register('category')}
            />
            <span className="flex flex-col">
              <span className="font-semibold">{RECIPIENT_CATEGORY_LABELS[value]}</span>
              <span className="text-base text-muted-foreground">{CATEGORY_HINTS[value]}</span>
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id="category-error" className="text-base font-semibold text-destructive">
          <span aria-hidden="true">⚠ </span>
          {error.message}
        </p>
      )}
    </fieldset>
  );
}

interface AddRecipientDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** `cardCode`: the code of the card made on this device (enhanced encryption on), else null. */
  onAdded: (recipient: TRecipientCreated, cardCode: string | null) => void;
  onUpgradeRequired: (message: string) => void;
}

/**
 * With enhanced encryption on, the card is made on this device: whether it is on here, and
 * whether this device is locked (then the owner unlocks it first).
 */
function useCardState(open: boolean) {
  const userId = useAuth().user?.id ?? null;
  const [state, setState] = useState<'off' | 'locked' | 'ready' | null>(null);
  useEffect(() => {
    if (!open || userId === null) return;
    let isCurrent = true;
    void findCardReadiness(userId)
      .then((readiness) => isCurrent && setState(readiness.state))
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [open, userId]);
  return { userId, state, setState };
}

export function AddRecipientDialog({
  open,
  onOpenChange,
  onAdded,
  onUpgradeRequired,
}: AddRecipientDialogProps) {
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TAddRecipientForm>({
    resolver: zodResolver(ZAddRecipientForm),
    defaultValues: EMPTY,
  });
  const category = useWatch({ control, name: 'category' });
  const card = useCardState(open);

  // Emptied as it opens, before it is drawn: someone who reopens it at once and starts typing
  // keeps every letter (a reset timed after closing once wiped what was typed in the first 300 ms).
  useLayoutEffect(() => {
    if (open) reset(EMPTY);
  }, [open, reset]);

  async function onSubmit(values: TAddRecipientForm) {
    const parsed = ZAddRecipientForm.parse(values);
    try {
      // The code is made here and never sent: the server gets its proof and the wrapped key.
      const made =
        card.userId === null
          ? null
          : await cardForNewRecipient(card.userId, parsed.email, {
              isNextOfKin: parsed.category === 'next_of_kin',
            });
      const created = await addRecipient({
        firstName: parsed.firstName,
        lastName: parsed.lastName,
        email: parsed.email,
        category: parsed.category,
        ...(parsed.category === 'next_of_kin'
          ? { phoneNumber: parsed.phoneNumber, relationship: parsed.relationship }
          : {}),
        ...(made ? { sealedCard: made.card } : {}),
      });
      onOpenChange(false);
      onAdded(created, made?.code ?? null);
    } catch (error) {
      if (error instanceof LockedDeviceError) {
        card.setState('locked');
        return;
      }
      if (isApiError(error) && error.code === 'UPGRADE_REQUIRED') {
        onOpenChange(false);
        onUpgradeRequired(error.message);
        return;
      }
      // The server's validation errors are put on the fields they name.
      const fields = isApiError(error) ? (error.fields ?? {}) : {};
      for (const [name, message] of Object.entries(fields)) {
        if (name in EMPTY) setError(name as keyof TAddRecipientForm, { message });
      }
      setError('root', {
        message: error instanceof Error ? error.message : 'Failed to add recipient',
      });
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Add Recipient</DialogTitle>
          <DialogDescription>
            {card.state === 'off' || card.state === null
              ? 'Someone you would like to record messages for. They are sent an access code by email.'
              : 'Someone you would like to record messages for. You get a card with their access code to print or share.'}
          </DialogDescription>
        </DialogHeader>
        {card.state === 'locked' && <LockedDeviceAlert />}
        <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-5">
          <PersonFields control={control} register={register} isSomeoneElse isRequired />
          <CategoryField register={register} category={category} error={errors.category} />
          {category === 'next_of_kin' && (
            <div className="grid gap-5 sm:grid-cols-2">
              <NextOfKinContactFields
                control={control}
                register={register}
                relationshipHint="For example: daughter"
              />
            </div>
          )}
          {errors.root && (
            <Alert variant="destructive" title="The recipient was not added">
              <p>{errors.root.message}</p>
            </Alert>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting || card.state === 'locked'}>
              {isSubmitting ? 'Adding...' : 'Add Recipient'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

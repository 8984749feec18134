import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { TCreateRecipientBody } from '@shared/schemas/safety-net';
import { FormField } from '@web/components/ui/form-field';

interface NextOfKinStepProps {
  register: UseFormRegister<TCreateRecipientBody>;
  errors: FieldErrors<TCreateRecipientBody>;
}

export function NextOfKinStep({ register, errors }: NextOfKinStepProps) {
  return (
    <div className="flex flex-col gap-5">
      <p>
        Choose someone you trust completely, such as a son or daughter, a partner or a close friend.
        We will email them an emergency code that lets them into your account if you no longer can.
      </p>
      <p className="text-base text-muted-foreground">
        All fields marked <span className="font-semibold text-destructive">*</span> are required.
      </p>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          label="First name"
          isRequired
          autoComplete="off"
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <FormField
          label="Last name"
          isRequired
          autoComplete="off"
          error={errors.lastName?.message}
          {...register('lastName')}
        />
      </div>
      <FormField
        label="Email"
        type="email"
        isRequired
        inputMode="email"
        autoComplete="off"
        spellCheck={false}
        hint="Their emergency code is sent to this address."
        error={errors.email?.message}
        {...register('email')}
      />
      <FormField
        label="Phone"
        type="tel"
        isRequired
        inputMode="tel"
        autoComplete="off"
        hint="A number where they can be reached."
        error={errors.phoneNumber?.message}
        {...register('phoneNumber')}
      />
      <FormField
        label="Relationship"
        isRequired
        autoComplete="off"
        hint="For example: daughter, son, husband or friend."
        error={errors.relationship?.message}
        {...register('relationship')}
      />
    </div>
  );
}

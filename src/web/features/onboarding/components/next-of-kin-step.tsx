import type { Control, FieldErrors, UseFormRegister } from 'react-hook-form';
import type { TCreateRecipientBody } from '@shared/schemas/safety-net';
import { PersonFields } from '@web/components/person-fields';
import { FormField } from '@web/components/ui/form-field';

interface NextOfKinStepProps {
  control: Control<TCreateRecipientBody>;
  register: UseFormRegister<TCreateRecipientBody>;
  errors: FieldErrors<TCreateRecipientBody>;
}

export function NextOfKinStep({ control, register, errors }: NextOfKinStepProps) {
  return (
    <div className="flex flex-col gap-5">
      <p>
        Choose someone you trust completely, such as a son or daughter, a partner or a close friend.
        We will email them an emergency code that lets them into your account if you no longer can.
      </p>
      <p className="text-base text-muted-foreground">
        All fields marked <span className="font-semibold text-destructive">*</span> are required.
      </p>
      <PersonFields
        control={control}
        register={register}
        isSomeoneElse
        isRequired
        emailHint="Their emergency code is sent to this address."
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

import type { Control, UseFormRegister } from 'react-hook-form';
import type { TCreateRecipientBody } from '@shared/schemas/recipients';
import { NextOfKinContactFields, PersonFields } from '@web/components/person-fields';

interface NextOfKinStepProps {
  control: Control<TCreateRecipientBody>;
  register: UseFormRegister<TCreateRecipientBody>;
}

export function NextOfKinStep({ control, register }: NextOfKinStepProps) {
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
      <NextOfKinContactFields
        control={control}
        register={register}
        phoneHint="A number where they can be reached."
        relationshipHint="For example: daughter, son, husband or friend."
      />
    </div>
  );
}

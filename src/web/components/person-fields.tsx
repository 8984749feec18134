import type { ReactNode } from 'react';
import {
  get,
  useFormState,
  type Control,
  type FieldError,
  type FieldValues,
  type Path,
  type UseFormRegister,
} from 'react-hook-form';
import { FormField } from '@web/components/ui/form-field';

interface PersonFieldsProps<TForm extends FieldValues, TValues extends FieldValues> {
  control: Control<TForm, unknown, TValues>;
  register: UseFormRegister<TForm>;
  /** Someone else's details: the browser should not offer the signed-in person's own. */
  isSomeoneElse?: boolean;
  isRequired?: boolean;
  emailHint?: ReactNode;
}

/** First name and last name side by side, then email: the same three fields wherever a person is named. */
export function PersonFields<TForm extends FieldValues, TValues extends FieldValues>({
  control,
  register,
  isSomeoneElse = false,
  isRequired = false,
  emailHint,
}: PersonFieldsProps<TForm, TValues>) {
  const { errors } = useFormState({ control });
  const field = (name: 'firstName' | 'lastName' | 'email') => ({
    error: (get(errors, name) as FieldError | undefined)?.message,
    ...register(name as Path<TForm>),
  });
  return (
    <>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          label="First name"
          isRequired={isRequired}
          autoComplete={isSomeoneElse ? 'off' : 'given-name'}
          {...field('firstName')}
        />
        <FormField
          label="Last name"
          isRequired={isRequired}
          autoComplete={isSomeoneElse ? 'off' : 'family-name'}
          {...field('lastName')}
        />
      </div>
      <FormField
        label="Email"
        type="email"
        isRequired={isRequired}
        inputMode="email"
        autoComplete={isSomeoneElse ? 'off' : 'email'}
        autoCapitalize="none"
        spellCheck={false}
        hint={emailHint}
        {...field('email')}
      />
    </>
  );
}

interface NextOfKinContactFieldsProps<TForm extends FieldValues, TValues extends FieldValues> {
  control: Control<TForm, unknown, TValues>;
  register: UseFormRegister<TForm>;
  phoneHint?: ReactNode;
  relationshipHint: ReactNode;
}

/** What a next of kin adds to the person fields: a phone number and how they are related. */
export function NextOfKinContactFields<TForm extends FieldValues, TValues extends FieldValues>({
  control,
  register,
  phoneHint,
  relationshipHint,
}: NextOfKinContactFieldsProps<TForm, TValues>) {
  const { errors } = useFormState({ control });
  const field = (name: 'phoneNumber' | 'relationship') => ({
    error: (get(errors, name) as FieldError | undefined)?.message,
    ...register(name as Path<TForm>),
  });
  return (
    <>
      <FormField
        label="Phone"
        type="tel"
        isRequired
        inputMode="tel"
        autoComplete="off"
        hint={phoneHint}
        {...field('phoneNumber')}
      />
      <FormField
        label="Relationship"
        isRequired
        autoComplete="off"
        hint={relationshipHint}
        {...field('relationship')}
      />
    </>
  );
}

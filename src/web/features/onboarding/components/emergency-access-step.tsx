import { KeyRound, LockKeyhole, Mail, ScrollText, ShieldAlert } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { CheckboxField } from '@web/components/ui/checkbox-field';

interface EmergencyAccessStepProps {
  nextOfKinFirstName: string;
  nextOfKinEmail: string;
  confirmed: readonly boolean[];
  onConfirm: (index: number, checked: boolean) => void;
}

export function emergencyConfirmations(firstName: string) {
  return [
    `I understand that ${firstName} will be able to set a new password for my account with this code.`,
    `I will keep the code private and share it only with ${firstName}.`,
  ] as const;
}

export function EmergencyAccessStep({
  nextOfKinFirstName: name,
  nextOfKinEmail,
  confirmed,
  onConfirm,
}: EmergencyAccessStepProps) {
  const points = [
    {
      icon: KeyRound,
      text: `When you finish setting up, Memento makes a private emergency code for ${name}.`,
    },
    { icon: Mail, text: `We email the code to ${name} at ${nextOfKinEmail}.` },
    {
      icon: LockKeyhole,
      text: `If you can no longer get into your account, ${name} can use their email address and the code to set a new password for it.`,
    },
    {
      icon: ScrollText,
      text: 'Every attempt to use the code, successful or not, is written in your security audit log, and you are emailed when it is used.',
    },
  ];

  return (
    <div className="flex flex-col gap-5">
      <p>This is how emergency access works:</p>
      <ol className="flex flex-col gap-4">
        {points.map(({ icon: Icon, text }, index) => (
          <li key={text} className="flex items-start gap-4">
            <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary">
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <span className="pt-1.5">
              <span className="sr-only">{`${index + 1}. `}</span>
              {text}
            </span>
          </li>
        ))}
      </ol>

      <Alert
        kind="note"
        variant="warm"
        title="This code is as strong as your password"
        icon={<ShieldAlert aria-hidden="true" />}
      >
        <p>
          Anyone with the code and {name}&rsquo;s email address can reset your password. Share it
          only privately with {name}: never in a group message or on social media.
        </p>
      </Alert>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-3 font-semibold">Please tick both boxes to continue</legend>
        {emergencyConfirmations(name).map((text, index) => (
          <CheckboxField
            key={text}
            checked={confirmed[index] ?? false}
            onCheckedChange={(checked) => onConfirm(index, checked)}
          >
            {text}
          </CheckboxField>
        ))}
      </fieldset>
    </div>
  );
}

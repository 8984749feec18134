import { Link } from 'react-router';
import { HeartHandshake } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { CheckboxField } from '@web/components/ui/checkbox-field';

export const WHY_ACKNOWLEDGEMENTS = [
  'I understand that Memento needs a next of kin who can get into my account if I no longer can.',
  'I know I can take a break at any time, and where to find support if I need it.',
] as const;

interface WhyThisMattersStepProps {
  acknowledged: readonly boolean[];
  onAcknowledge: (index: number, checked: boolean) => void;
}

export function WhyThisMattersStep({ acknowledged, onAcknowledge }: WhyThisMattersStepProps) {
  return (
    <div className="flex flex-col gap-5">
      <p>
        Memento keeps your video messages safe for the people you love. Your account is tied to this
        device and protected by your password, so nobody else can open it.
      </p>
      <p>
        That also means that if you forget your password, or the time comes when you cannot sign in,
        someone you trust needs a way in. That person is your <strong>next of kin</strong>. In the
        next steps you choose them, and we send them a private emergency code.
      </p>

      <Alert
        kind="note"
        variant="warm"
        title="Looking after yourself"
        icon={<HeartHandshake aria-hidden="true" />}
      >
        <p>
          Thinking about the future can bring up strong feelings. Take your time, and stop whenever
          you need to: you can come back later.
        </p>
        <p>
          If you would like to talk to someone, our{' '}
          <Link to="/support" className="font-semibold text-primary underline underline-offset-4">
            Counselling &amp; Support page
          </Link>{' '}
          lists people who can help.
        </p>
      </Alert>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-3 font-semibold">Please tick both boxes to continue</legend>
        {WHY_ACKNOWLEDGEMENTS.map((text, index) => (
          <CheckboxField
            key={text}
            checked={acknowledged[index] ?? false}
            onCheckedChange={(checked) => onAcknowledge(index, checked)}
          >
            {text}
          </CheckboxField>
        ))}
      </fieldset>
    </div>
  );
}

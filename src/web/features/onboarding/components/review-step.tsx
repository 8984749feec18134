import { Pencil } from 'lucide-react';
import type { TCreateRecipientBody } from '@shared/schemas/recipients';
import { Button } from '@web/components/ui/button';

interface ReviewStepProps {
  nextOfKin: TCreateRecipientBody;
  onEditNextOfKin: () => void;
}

export function ReviewStep({ nextOfKin, onEditNextOfKin }: ReviewStepProps) {
  const name = nextOfKin.firstName.trim();
  const rows = [
    { term: 'Name', value: `${nextOfKin.firstName.trim()} ${nextOfKin.lastName.trim()}` },
    { term: 'Email', value: nextOfKin.email.trim() },
    { term: 'Phone', value: nextOfKin.phoneNumber?.trim() ?? '' },
    { term: 'Relationship', value: nextOfKin.relationship?.trim() ?? '' },
  ];

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="review-next-of-kin" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="review-next-of-kin" className="text-xl font-bold">
            Your next of kin
          </h3>
          <Button variant="link" onClick={onEditNextOfKin}>
            <Pencil aria-hidden="true" />
            Change details
          </Button>
        </div>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-lg bg-muted p-5 sm:grid-cols-[auto_1fr] sm:gap-y-3">
          {rows.map(({ term, value }) => (
            <div key={term} className="contents">
              <dt className="text-muted-foreground">{term}</dt>
              <dd className="mb-2 font-semibold break-words sm:mb-0">{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="review-next" className="flex flex-col gap-3">
        <h3 id="review-next" className="text-xl font-bold">
          What happens next
        </h3>
        <ol className="flex list-decimal flex-col gap-2 pl-6">
          <li>We save {name} as your next of kin.</li>
          <li>We email {name} their emergency code, with a kind note explaining what it is for.</li>
          <li>
            You see the same code once on the next screen, to write down or print and keep somewhere
            safe.
          </li>
          <li>Then you can start using Memento.</li>
        </ol>
      </section>
    </div>
  );
}

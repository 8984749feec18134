import { Check, Circle } from 'lucide-react';
import { PASSWORD_REQUIREMENTS } from '@shared/domain/passwords';
import { cn } from '@web/lib/utils';

interface PasswordChecklistProps {
  id: string;
  password: string;
}

/** Live list of the password rules; each shows met or not by colour, icon and words. */
export function PasswordChecklist({ id, password }: PasswordChecklistProps) {
  return (
    <ul
      id={id}
      aria-label="Password requirements"
      className="flex flex-col gap-1.5 rounded-lg bg-muted p-4"
    >
      {PASSWORD_REQUIREMENTS.map((requirement) => {
        const isMet = requirement.isMet(password);
        return (
          <li
            key={requirement.id}
            data-met={isMet}
            className={cn(
              'flex items-start gap-2.5 text-base',
              isMet ? 'font-semibold text-success' : 'text-muted-foreground',
            )}
          >
            {isMet ? (
              <Check className="mt-0.5 size-5 shrink-0" strokeWidth={3} aria-hidden="true" />
            ) : (
              <Circle className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            )}
            <span>
              <span className="sr-only">{isMet ? 'Met: ' : 'Not met: '}</span>
              {requirement.label}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

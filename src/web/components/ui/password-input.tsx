import { useState, type ComponentProps } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { cn } from '@web/lib/utils';
import { Input } from './input';

/** A password input with a Show/Hide button: typing blind is hard for many older people. */
export function PasswordInput({ className, id, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  const [isVisible, setIsVisible] = useState(false);
  return (
    <div className="relative">
      <Input
        id={id}
        type={isVisible ? 'text' : 'password'}
        className={cn('pr-24', className)}
        {...props}
      />
      <button
        type="button"
        aria-controls={id}
        aria-pressed={isVisible}
        onClick={() => setIsVisible((visible) => !visible)}
        className="absolute top-1/2 right-1.5 inline-flex min-h-11 -translate-y-1/2 cursor-pointer items-center gap-1.5 rounded-md px-3 text-base font-semibold text-primary hover:bg-primary-soft"
      >
        {isVisible ? (
          <EyeOff className="size-5" aria-hidden="true" />
        ) : (
          <Eye className="size-5" aria-hidden="true" />
        )}
        {isVisible ? 'Hide' : 'Show'}
      </button>
    </div>
  );
}

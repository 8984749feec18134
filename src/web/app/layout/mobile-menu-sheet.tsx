import { NavLink } from 'react-router';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { LogOut, X } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/utils';
import { BrandLink } from './brand-link';
import type { TNavLink } from './nav-links';

export interface MobileMenuSheetProps {
  links: readonly TNavLink[];
  isSignedIn: boolean;
  onSignOut: () => void;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  /** Closing gives focus back to the button that opened the sheet. */
  onCloseAutoFocus: (event: Event) => void;
}

/** Side sheet with the same links, for narrow screens; loaded when the menu is first opened. */
export function MobileMenuSheet({
  links,
  isSignedIn,
  onSignOut,
  isOpen,
  onOpenChange,
  onCloseAutoFocus,
}: MobileMenuSheetProps) {
  const close = () => onOpenChange(false);

  return (
    <DialogPrimitive.Root open={isOpen} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-[#1b1714]/55 data-[state=open]:animate-fade-in" />
        <DialogPrimitive.Content
          onCloseAutoFocus={onCloseAutoFocus}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(22rem,88vw)] flex-col gap-6 overflow-y-auto bg-card p-5 shadow-lifted data-[state=open]:animate-sheet-in"
        >
          <div className="flex items-center justify-between gap-3">
            <BrandLink onClick={close} />
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close menu">
                <X className="size-7" aria-hidden="true" />
              </Button>
            </DialogPrimitive.Close>
          </div>
          <DialogPrimitive.Title className="sr-only">Menu</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">
            Pages of Memento
          </DialogPrimitive.Description>
          <nav aria-label="Main">
            <ul className="flex flex-col gap-1">
              {links.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    end
                    onClick={close}
                    className={({ isActive }) =>
                      cn(
                        'flex min-h-13 items-center rounded-lg px-4 text-lg font-semibold',
                        isActive
                          ? 'bg-primary-soft text-primary'
                          : 'text-foreground hover:bg-muted',
                      )
                    }
                  >
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          {isSignedIn && (
            <Button
              variant="outline"
              className="mt-auto"
              onClick={() => {
                close();
                onSignOut();
              }}
            >
              <LogOut aria-hidden="true" />
              Sign Out
            </Button>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

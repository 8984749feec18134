import { Suspense, useRef, useState } from 'react';
import { Menu } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import type { TNavLink } from './nav-links';
import { lazyNamed } from '@web/lib/lazy-named';

const MobileMenuSheet = lazyNamed(() => import('./mobile-menu-sheet'), 'MobileMenuSheet');

interface MobileMenuProps {
  links: readonly TNavLink[];
  isSignedIn: boolean;
  onSignOut: () => void;
}

/**
 * The menu button for narrow screens. The sheet it opens (a dialog) loads on the first tap, so a
 * first screen does not wait for the dialog's code.
 */
export function MobileMenu({ links, isSignedIn, onSignOut }: MobileMenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [wasOpened, setWasOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        className="xl:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        onClick={() => {
          setWasOpened(true);
          setIsOpen(true);
        }}
      >
        <Menu className="size-7" aria-hidden="true" />
      </Button>
      {wasOpened && (
        <Suspense fallback={null}>
          <MobileMenuSheet
            links={links}
            isSignedIn={isSignedIn}
            onSignOut={onSignOut}
            isOpen={isOpen}
            onOpenChange={setIsOpen}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              button.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

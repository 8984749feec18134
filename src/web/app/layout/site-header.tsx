import { NavLink, useNavigate } from 'react-router';
import { LogOut } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { useAuth } from '@web/lib/auth-provider';
import { cn } from '@web/lib/utils';
import { BrandLink } from './brand-link';
import { MobileMenu } from './mobile-menu';
import { ADMIN_LINK, IMPORT_FROM_MOBILE_LINK, LEGACY_LINK, NAV_LINKS } from './nav-links';
import { isPrimaryUser } from '@web/lib/auth-api';

const IMPORT_TIERS = new Set(['standard', 'premium', 'professional']);

export function SiteHeader() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const links = user?.isAdmin ? [...NAV_LINKS, ADMIN_LINK] : NAV_LINKS;
  const canImport = Boolean(user && isPrimaryUser(user) && IMPORT_TIERS.has(user.subscriptionTier));
  const ownerLinks = [
    ...(canImport ? [IMPORT_FROM_MOBILE_LINK] : []),
    ...(user?.category === 'primary' ? [LEGACY_LINK] : []),
  ];
  const mobileLinks = [...links, ...ownerLinks];

  function signOut() {
    logout()
      .then(() => navigate('/auth'))
      // The failure toast has already told the person; they stay signed in.
      .catch(() => undefined);
  }

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/85">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-2 sm:px-6">
        <BrandLink />
        <nav aria-label="Main" className="hidden xl:block">
          <ul className="flex items-center">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end
                  className={({ isActive }) =>
                    cn(
                      'inline-flex min-h-12 items-center rounded-lg px-2.5 text-base font-semibold whitespace-nowrap',
                      isActive ? 'bg-primary-soft text-primary' : 'text-foreground hover:bg-muted',
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          {user && (
            <Button
              variant="outline"
              className="hidden px-4 whitespace-nowrap md:inline-flex"
              onClick={signOut}
            >
              <LogOut aria-hidden="true" />
              Sign Out
            </Button>
          )}
          <MobileMenu links={mobileLinks} isSignedIn={Boolean(user)} onSignOut={signOut} />
        </div>
      </div>
    </header>
  );
}

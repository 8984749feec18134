// The two pages of moving messages tablet to tablet share their frame and their sign-in check.
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { TUser } from '@shared/schemas/auth';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { useAuth } from '@web/lib/auth-provider';

export function MovePage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      <p className="text-lg">{intro}</p>
      <Card className="flex flex-col gap-5 p-6 sm:p-8">{children}</Card>
    </div>
  );
}

/**
 * The account as it was when the page opened: the old device's session ends when the account
 * moves, and the move of messages carries on with its own key to the transfer.
 */
export function useOwnerAtStart(): { owner: TUser | null; isLoading: boolean } {
  const { user, isLoading } = useAuth();
  const [kept, setKept] = useState<TUser | null>(null);
  if (user && kept?.id !== user.id) setKept(user);
  return { owner: kept ?? user ?? null, isLoading: isLoading && !kept };
}

export function SignInFirst() {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-lg">Please sign in on this device first.</p>
      <div>
        <Button asChild size="lg">
          <Link to="/auth">Sign in</Link>
        </Button>
      </div>
    </div>
  );
}

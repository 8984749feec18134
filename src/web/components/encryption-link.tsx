import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { LockKeyhole } from 'lucide-react';
import type { TEncryptionState } from '@shared/schemas/encryption';
import { Button } from '@web/components/ui/button';
import { ENCRYPTION_QUERY_KEY, fetchEncryptionState } from '@web/lib/encryption/encryption-state';

/**
 * The way to the Enhanced encryption page, for an account whose plan offers it or that has it on
 * (the dashboard's cloud card, the plans page). Nothing while the answer is unknown or it is not
 * offered: a paid account on a server without it is not sent to a page that says it needs a plan.
 */
export function EncryptionLink({ enabled = true }: { enabled?: boolean }) {
  const { data } = useQuery<TEncryptionState>({
    queryKey: ENCRYPTION_QUERY_KEY,
    queryFn: fetchEncryptionState,
    enabled,
    staleTime: 60_000,
  });
  if (!data || (data.state === 'off' && !data.isOffered)) return null;
  return (
    <div>
      <Button asChild variant="outline">
        <Link to="/encryption">
          <LockKeyhole aria-hidden="true" />
          {data.state === 'on' ? 'Enhanced encryption is on' : 'Enhanced encryption'}
        </Link>
      </Button>
    </div>
  );
}

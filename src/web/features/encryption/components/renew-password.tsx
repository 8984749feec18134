import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { ENCRYPTION_QUERY_KEY } from '@web/lib/encryption/encryption-state';
import { renewPasswordWrap } from '@web/lib/encryption/unlock';
import { OwnPasswordField, UnlockForm, useUnlockAttempt } from './unlock-form';

/**
 * After a reset (an emailed code, an admin or the next of kin): this unlocked device lets the new
 * password open the sealed messages on other devices again.
 */
export function RenewPassword({ userId, username }: { userId: number; username: string }) {
  const [password, setPassword] = useState('');
  const { isWorking, error, attempt } = useUnlockAttempt();
  const queryClient = useQueryClient();

  return (
    <UnlockForm
      icon={KeyRound}
      title="Let your new password open your messages"
      intro="Your password was reset, so on a new device it does not open your sealed messages yet. This device can fix that: type your password once."
      isWorking={isWorking}
      submitLabel="Use my password"
      onSubmit={(event) =>
        attempt(event, async () => {
          await renewPasswordWrap(userId, username, password);
          await queryClient.invalidateQueries({ queryKey: ENCRYPTION_QUERY_KEY });
        })
      }
    >
      <OwnPasswordField
        value={password}
        onChange={setPassword}
        error={error}
        disabled={isWorking}
      />
    </UnlockForm>
  );
}

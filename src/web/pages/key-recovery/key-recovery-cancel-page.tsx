import { StopByLink } from '@web/components/stop-by-link';
import { stopKeyRecoveryByLink } from '@web/lib/encryption/escrow';

/** The link in the owner's email that stops a key recovery asked for from their account. */
export default function KeyRecoveryCancelPage() {
  return (
    <StopByLink
      title="Stop the key recovery"
      explanation="Someone signed in to your account asked for your next of kin’s emergency card to open your sealed messages. If this was not you, or you did not agree, press the button below. Your next of kin is told that you stopped it."
      buttonLabel="Stop this key recovery"
      doneText="The key recovery is stopped. Your sealed messages stay closed to the card. Sign in on a device that still opens them, or use your recovery sheet, and change your password."
      failedTitle="The key recovery was not stopped"
      stop={stopKeyRecoveryByLink}
    />
  );
}

import { StopByLink } from '@web/components/stop-by-link';
import { CANCEL_TEXT } from '@web/features/legacy/release-wording';
import { cancelReleaseByLink } from '@web/features/legacy/legacy-api';

/** The link in the owner's email that cancels a legacy release their next of kin asked for. */
export default function LegacyCancelPage() {
  return (
    <StopByLink
      title="Cancel the legacy release"
      explanation="Your next of kin has asked to release your legacy. If you are well and do not want your messages opened, press the button below. Your next of kin is told that you cancelled."
      buttonLabel={CANCEL_TEXT.button}
      doneText={CANCEL_TEXT.done}
      failedTitle="The release was not cancelled"
      stop={cancelReleaseByLink}
    />
  );
}

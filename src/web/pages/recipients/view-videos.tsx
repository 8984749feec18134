import type { ComponentProps } from 'react';
import { MessageRelease } from '@web/features/legacy/components/message-release';
import type { TReleaseControl } from '@web/features/recipients/components/recipient-video-items';
import { ViewVideosDialog } from '@web/features/recipients/components/view-videos-dialog';
import { CareTeamMessageControl } from '../care-home/my-care-team-shares';

/** Under each message: its release rule, and for a resident whether their care team sees it. */
function ReleaseAndCareTeam(props: ComponentProps<TReleaseControl>) {
  return (
    <>
      <MessageRelease {...props} />
      <CareTeamMessageControl videoId={props.videoId} title={props.title} />
    </>
  );
}

/** A recipient's videos, each with its release rule: the legacy feature's part, composed here. */
export function ViewVideosWithRelease(
  props: Omit<ComponentProps<typeof ViewVideosDialog>, 'releaseControl'>,
) {
  return <ViewVideosDialog {...props} releaseControl={ReleaseAndCareTeam} />;
}

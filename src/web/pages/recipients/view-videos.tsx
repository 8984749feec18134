import type { ComponentProps } from 'react';
import { MessageRelease } from '@web/features/legacy/components/message-release';
import { ViewVideosDialog } from '@web/features/recipients/components/view-videos-dialog';

/** A recipient's videos, each with its release rule: the legacy feature's part, composed here. */
export function ViewVideosWithRelease(
  props: Omit<ComponentProps<typeof ViewVideosDialog>, 'releaseControl'>,
) {
  return <ViewVideosDialog {...props} releaseControl={MessageRelease} />;
}

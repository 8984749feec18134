export { LegacyReleaseMount } from './components/legacy-release-mount';
export { EndRelease } from './components/end-release';
export { MessageRelease } from './components/message-release';
export { NextOfKinAsking } from './components/next-of-kin-asking';
export { NextOfKinLegacy } from './components/next-of-kin-legacy';
export { ReleaseChoice } from './components/release-choice';
export { WaitingMessages } from './components/waiting-messages';
export { useCancelRelease } from './use-cancel-release';
export {
  cancelReleaseByLink,
  LEGACY_QUERY_KEY,
  saveLegacySettings,
  useLegacyState,
} from './legacy-api';
export {
  CANCEL_TEXT,
  describeAsker,
  END_TEXT,
  formatLongDate,
  NOW_DRAFT,
  readDraft,
  RELEASE_TEXT,
  type TReleaseDraft,
} from './release-wording';

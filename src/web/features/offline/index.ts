export { NeedsConnection } from './needs-connection';
export { OfflineStatus } from './offline-status';
export { UpdatePrompt } from './update-prompt';
export { OFFLINE_MESSAGES } from './offline-messages';
export { InstallOffer } from './install-offer';

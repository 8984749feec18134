// Loaded when the connection returns, not with the page: the saving code and the local store.
export { indexPendingVideos } from '@web/lib/videos/index-rows';

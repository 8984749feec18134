export { VideoPlayer } from './components/video-player';
export {
  appendDraftChunk,
  countVideos,
  deleteLocalUpload,
  deleteLocalVideos,
  discardDraft,
  getDraftBlob,
  getLocalUpload,
  getVideo,
  getVideoBlob,
  listDrafts,
  listVideos,
  markIndexed,
  putLocalUpload,
  recordPartSent,
  saveVideo,
  setLocalRelease,
  setSyncStatus,
  startDraft,
  type TDraftRecording,
  type TLocalUpload,
  type TLocalVideo,
} from './local-store';
export { indexPendingVideos } from './index-rows';
export {
  deleteIndexedVideos,
  fetchPlayback,
  indexVideo,
  useVideoIndex,
  VIDEO_INDEX_QUERY_KEY,
} from './videos-api';

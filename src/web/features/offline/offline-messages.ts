/** What the app says while the network is away. */
export const OFFLINE_MESSAGES = {
  safe: 'You are offline. Your videos on this device are safe.',
  needsConnection: 'You are offline. This needs a connection; your videos on this device are safe.',
  updateReady: 'A new version of Memento is ready',
  reload: 'Reload',
  installTitle: 'Put Memento on your home screen',
  installPrompt:
    'Memento can open like an app from your home screen, full screen, and it works without the internet.',
  installAppleHint:
    "Memento can open like an app from your home screen. Tap the Share button, then 'Add to Home Screen'.",
  installButton: 'Install Memento',
  installNotNow: 'Not now',
  installGotIt: 'Got it',
} as const;

/** '2 recordings wait to be sent', for the offline line. */
export function describeWaiting(count: number): string {
  return count === 1 ? '1 recording waits to be sent' : `${count} recordings wait to be sent`;
}

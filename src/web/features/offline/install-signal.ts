/**
 * Whether the browser lets the app offer itself for installing. Chrome and Edge announce it once,
 * early, with `beforeinstallprompt`: the listener is set when this module loads, so the offer can
 * be made later, when the person is not busy. Safari on an iPad or iPhone has no such event: it
 * is installed from the Share menu, which the offer explains instead.
 */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

const DISMISSED_KEY = 'memento.installOfferDismissed';
let promptEvent: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    // Kept for the offer of our own, rather than the browser's bar over the page.
    event.preventDefault();
    promptEvent = event as InstallPromptEvent;
    listeners.forEach((listener) => listener());
  });
  window.addEventListener('appinstalled', () => {
    promptEvent = null;
    listeners.forEach((listener) => listener());
  });
}

function isInstalled(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/** Safari on an iPad (which may say it is a Mac) or an iPhone. */
function isAppleTouchSafari(): boolean {
  const agent = navigator.userAgent;
  const isAppleTouch =
    /iPad|iPhone|iPod/.test(agent) || (/Macintosh/.test(agent) && navigator.maxTouchPoints > 1);
  return isAppleTouch && /Safari/.test(agent) && !/CriOS|FxiOS|EdgiOS/.test(agent);
}

export type TInstallOffer = 'prompt' | 'apple-hint' | null;

/** What to offer now: the browser's own install prompt, the iPad hint, or nothing. */
export function currentInstallOffer(): TInstallOffer {
  if (typeof window === 'undefined' || isInstalled()) return null;
  if (localStorage.getItem(DISMISSED_KEY)) return null;
  if (promptEvent) return 'prompt';
  return isAppleTouchSafari() ? 'apple-hint' : null;
}

export function subscribeToInstallOffer(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shown once: after installing or saying no, it is not offered on this browser again. */
export function dismissInstallOffer(): void {
  localStorage.setItem(DISMISSED_KEY, new Date().toISOString());
  listeners.forEach((listener) => listener());
}

export async function askToInstall(): Promise<void> {
  const event = promptEvent;
  if (!event) return;
  promptEvent = null;
  await event.prompt();
  await event.userChoice.catch(() => undefined);
  dismissInstallOffer();
}

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { AppErrorBoundary, ApplicationErrorPage } from './app/application-error';
import './styles.css';

declare global {
  interface Window {
    /** Set once the app is mounted, so a second execution of this script does nothing. */
    __mementoMounted?: boolean;
  }
}

const ROOT_MISSING = 'Error: Application root element not found. Please refresh the page.';

/** SPEC §8: permission prompts refused and dropped sockets are expected, not crashes. */
function isExpectedRejection(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  return (
    reason.name === 'NotAllowedError' ||
    /permission/i.test(reason.message) ||
    /websocket/i.test(reason.message)
  );
}

function ignoreExpectedRejections() {
  window.addEventListener('unhandledrejection', (event) => {
    if (!isExpectedRejection(event.reason)) return;
    event.preventDefault();
    console.warn('Ignored browser error:', event.reason);
  });
}

function showRootMissing() {
  const message = document.createElement('p');
  message.textContent = ROOT_MISSING;
  message.setAttribute('role', 'alert');
  message.style.cssText = 'color:#b42318;font:600 1.25rem/1.5 system-ui,sans-serif;padding:2rem;';
  document.body.appendChild(message);
}

function mount() {
  const rootElement = document.getElementById('root');
  if (!rootElement) {
    showRootMissing();
    return;
  }
  if (window.__mementoMounted) {
    console.warn('Memento is already mounted; skipping a second mount.');
    return;
  }
  window.__mementoMounted = true;
  ignoreExpectedRejections();

  const root = createRoot(rootElement);
  try {
    root.render(
      <StrictMode>
        <AppErrorBoundary>
          <App />
        </AppErrorBoundary>
      </StrictMode>,
    );
  } catch (error) {
    console.warn('Mounting Memento failed', error);
    root.render(<ApplicationErrorPage />);
  }
}

mount();

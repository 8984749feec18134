/**
 * A message in plain HTML, for the failures that leave React nothing to show it with (no root
 * element, the app's code not arrived). Put first in `container`, announced by screen readers.
 */
export function showPlainAlert(text: string, container: HTMLElement = document.body): void {
  const message = document.createElement('p');
  message.textContent = text;
  message.setAttribute('role', 'alert');
  message.style.cssText = 'color:#b42318;font:600 1.25rem/1.5 system-ui,sans-serif;padding:2rem;';
  container.prepend(message);
}

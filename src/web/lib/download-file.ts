/** How long the object URL lives: the browser may still be reading a large file after click(). */
const REVOKE_AFTER_MS = 60_000;

/** Hands a Blob to the browser's download with its file name (object URL + `<a download>`). */
export function downloadFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

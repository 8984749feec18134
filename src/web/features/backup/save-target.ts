/** The File System Access API's save picker, where the browser has it (Chrome, Edge). */
type TSavePicker = (options: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<FileSystemFileHandle>;

/**
 * Asks where to save, so a large file streams straight to disk. Null where the browser has no
 * picker (the file is then built from parts and downloaded); 'cancelled' when the person closed
 * it. Must run first in a click handler: the picker needs the click's user activation.
 */
export async function chooseSaveTarget(
  suggestedName: string,
): Promise<FileSystemFileHandle | null | 'cancelled'> {
  const picker = (globalThis as { showSaveFilePicker?: TSavePicker }).showSaveFilePicker;
  if (typeof picker !== 'function') return null;
  try {
    return await picker({
      suggestedName,
      types: [{ description: 'Zip file', accept: { 'application/zip': ['.zip'] } }],
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    // A picker that cannot open (a sandboxed frame, a policy) still leaves the download.
    return null;
  }
}

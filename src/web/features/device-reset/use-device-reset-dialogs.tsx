import { useRef, useState } from 'react';
import type { TResetDeviceResponse } from '@shared/schemas/devices';
import { dismissToast } from '@web/components/ui/use-toast';
import { EmergencyResetDialog } from './emergency-reset-dialog';
import { ResetDeviceDialog } from './reset-device-dialog';

type TOpenDialog = 'reset' | 'emergency' | null;

/**
 * The reset confirmation and its emergency fallback, shared by the sign-in page and the
 * dashboard. Focus goes back to whatever opened the first dialog, even after switching.
 */
export function useDeviceResetDialogs(
  options: { onDeviceFreed?: (result: TResetDeviceResponse) => void } = {},
) {
  const [openDialog, setOpenDialog] = useState<TOpenDialog>(null);
  const openDialogRef = useRef<TOpenDialog>(null);
  const opener = useRef<HTMLElement | null>(null);

  function show(dialog: TOpenDialog) {
    if (openDialogRef.current === null && document.activeElement instanceof HTMLElement) {
      opener.current = document.activeElement;
      // The error toast said what the dialog now deals with; keep it from covering the dialog.
      if (dialog) dismissToast();
    }
    openDialogRef.current = dialog;
    setOpenDialog(dialog);
  }

  function returnFocus(event: Event) {
    // Switching dialogs: the next one takes focus itself.
    if (openDialogRef.current !== null) {
      event.preventDefault();
      return;
    }
    if (opener.current?.isConnected) {
      event.preventDefault();
      opener.current.focus();
    }
  }

  const dialogs = (
    <>
      <ResetDeviceDialog
        open={openDialog === 'reset'}
        onOpenChange={(isOpen) => show(isOpen ? 'reset' : null)}
        onRequestEmergency={() => show('emergency')}
        onDeviceFreed={options.onDeviceFreed}
        onCloseAutoFocus={returnFocus}
      />
      <EmergencyResetDialog
        open={openDialog === 'emergency'}
        onOpenChange={(isOpen) => show(isOpen ? 'emergency' : null)}
        onCloseAutoFocus={returnFocus}
      />
    </>
  );

  return {
    openReset: () => show('reset'),
    openEmergency: () => show('emergency'),
    dialogs,
  };
}

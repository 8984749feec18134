import { Suspense, useRef, useState } from 'react';
import type { TResetDeviceResponse } from '@shared/schemas/devices';
import { dismissToast } from '@web/components/ui/use-toast';
import { lazyNamed } from '@web/lib/lazy-named';

// Loaded the first time one is opened: the pages that offer a reset do not need them to show.
const ResetDeviceDialog = lazyNamed(() => import('./reset-device-dialog'), 'ResetDeviceDialog');
const EmergencyResetDialog = lazyNamed(
  () => import('./emergency-reset-dialog'),
  'EmergencyResetDialog',
);

type TOpenDialog = 'reset' | 'emergency' | null;

/**
 * The reset confirmation and its emergency fallback, shared by the sign-in page and the
 * dashboard. Focus goes back to whatever opened the first dialog, even after switching.
 */
export function useDeviceResetDialogs(
  options: { onDeviceFreed?: (result: TResetDeviceResponse) => void } = {},
) {
  const [openDialog, setOpenDialog] = useState<TOpenDialog>(null);
  const [wasOpened, setWasOpened] = useState(false);
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
    if (dialog) setWasOpened(true);
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

  const dialogs = wasOpened && (
    <Suspense fallback={null}>
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
    </Suspense>
  );

  return {
    openReset: () => show('reset'),
    openEmergency: () => show('emergency'),
    dialogs,
  };
}

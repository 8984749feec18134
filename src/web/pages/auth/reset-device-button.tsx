import { Button } from '@web/components/ui/button';

/** Opens the dialog that frees this device from the account tied to it. */
export function ResetDeviceButton({ onResetDevice }: { onResetDevice: () => void }) {
  return (
    <div>
      <Button variant="outline" onClick={onResetDevice}>
        Reset Device Association
      </Button>
    </div>
  );
}

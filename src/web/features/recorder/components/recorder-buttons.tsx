import { Camera, Circle, RotateCcw, Save, Square } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/utils';
import type { TRecorder, TRecorderStatus } from '../use-recorder';

interface TMainActionHandlers {
  onTurnOnCamera: () => void;
  onStart: () => void;
  onCancel: () => void;
  onStop: () => void;
  onSave: () => void;
  isSaving: boolean;
  isUnsupported: boolean;
}

/** What the one main button says and does in each state of the recorder. */
function describeMainAction(status: TRecorderStatus, handlers: TMainActionHandlers) {
  switch (status) {
    case 'ready':
      return {
        label: 'Start Recording',
        icon: <Circle className="fill-current" aria-hidden="true" />,
        variant: 'default' as const,
        onClick: handlers.onStart,
        isWaiting: false,
        isDisabled: false,
      };
    case 'countdown':
      return {
        label: 'Cancel',
        icon: null,
        variant: 'outline' as const,
        onClick: handlers.onCancel,
        isWaiting: false,
        isDisabled: false,
      };
    case 'recording':
    case 'stopping':
      return {
        label: 'Stop Recording',
        icon: <Square className="fill-current" aria-hidden="true" />,
        variant: 'destructive' as const,
        onClick: handlers.onStop,
        isWaiting: status === 'stopping',
        isDisabled: false,
      };
    case 'recorded':
      return {
        label: handlers.isSaving ? 'Saving...' : 'Save Message',
        icon: <Save aria-hidden="true" />,
        variant: 'default' as const,
        onClick: handlers.onSave,
        isWaiting: handlers.isSaving,
        isDisabled: false,
      };
    default:
      return {
        label: 'Turn On Camera',
        icon: <Camera aria-hidden="true" />,
        variant: 'default' as const,
        onClick: handlers.onTurnOnCamera,
        isWaiting: status === 'starting',
        isDisabled: handlers.isUnsupported,
      };
  }
}

interface RecorderButtonsProps {
  recorder: TRecorder;
  onTurnOnCamera: () => void;
  onStart: () => void;
  onSave: () => void;
  isSaving: boolean;
}

/** The main button, whose words and action follow the recorder, and 'Record Again' at the end. */
export function RecorderButtons({
  recorder,
  onTurnOnCamera,
  onStart,
  onSave,
  isSaving,
}: RecorderButtonsProps) {
  const { status, problem } = recorder;
  const action = describeMainAction(status, {
    onTurnOnCamera,
    onStart,
    onCancel: recorder.cancelCountdown,
    onStop: () => recorder.stop(),
    onSave,
    isSaving,
    isUnsupported: problem?.kind === 'unsupported',
  });
  return (
    <div className="flex flex-col gap-3 sm:flex-row">
      {/*
          One button for the main action in every state, so keyboard focus stays on it from
          'Turn On Camera' to 'Save Message' instead of falling back to the page.
        */}
      <Button
        size="lg"
        variant={action.variant}
        onClick={action.isWaiting ? undefined : action.onClick}
        aria-disabled={action.isWaiting || undefined}
        disabled={action.isDisabled}
        className={cn(action.isWaiting && 'cursor-wait opacity-70')}
      >
        {action.icon}
        {action.label}
      </Button>
      {status === 'recorded' && (
        <Button
          size="lg"
          variant="outline"
          onClick={() => void recorder.recordAgain()}
          disabled={isSaving}
        >
          <RotateCcw aria-hidden="true" />
          Record Again
        </Button>
      )}
    </div>
  );
}

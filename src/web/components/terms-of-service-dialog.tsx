import { useId, useState } from 'react';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { Label } from '@web/components/ui/label';

const TERMS: { heading: string; body: string }[] = [
  {
    heading: 'What Memento is',
    body: 'Memento lets you record video messages for the people you love. The Community Edition is free to use.',
  },
  {
    heading: 'Where your videos are kept',
    body: 'Your videos are saved only in this browser on this device. They are not uploaded and not backed up to the cloud. If the device is lost or broken, or this browser’s data is cleared, the videos are gone and nobody can recover them.',
  },
  {
    heading: 'What the server keeps',
    body: 'To run your account, the server keeps your name, email address and username; your password, scrambled so that it cannot be read back; this device’s identity; and a security log of sign-ins and device resets, with the network address and browser used. When you add the people you record for, it also keeps their names and email addresses, and a list of your videos: size, length and date only, never the video or its title.',
  },
  {
    heading: 'Your account and this device',
    body: 'Your account belongs to the device where you create it, and each device holds one account. Keep your password private. Anyone who knows it and has this device can open your account.',
  },
  {
    heading: 'Your recordings',
    body: 'What you record is yours. Please only record other people with their permission, and only share messages with people you intend to receive them.',
  },
  {
    heading: 'No guarantees',
    body: 'We work hard to keep Memento safe and working, but it is provided as it is, without a promise that it will always be available. Keep your device safe and up to date.',
  },
  {
    heading: 'Stopping and changes',
    body: 'You can stop using Memento at any time. The people who run this Memento may close an account that is used to harm others. If these terms change, you will be asked to accept the new version.',
  },
];

interface TermsOfServiceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAccept: () => void;
}

/** Scrollable terms, a required checkbox, then 'Accept and Continue'. */
export function TermsOfServiceDialog({ open, onOpenChange, onAccept }: TermsOfServiceDialogProps) {
  const checkboxId = useId();
  const textId = useId();
  const [isAgreed, setIsAgreed] = useState(false);

  function changeOpen(isOpen: boolean) {
    if (!isOpen) setIsAgreed(false);
    onOpenChange(isOpen);
  }

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Terms of Service</DialogTitle>
          <DialogDescription>
            Please read these short terms. They are written in plain words.
          </DialogDescription>
        </DialogHeader>

        <div
          id={textId}
          role="region"
          aria-label="Terms of Service text"
          tabIndex={0}
          className="max-h-[40dvh] overflow-y-auto rounded-lg border border-border bg-background p-5"
        >
          <div className="flex flex-col gap-4">
            {TERMS.map((section) => (
              <section key={section.heading} className="flex flex-col gap-1">
                <h3 className="text-lg font-bold">{section.heading}</h3>
                <p>{section.body}</p>
              </section>
            ))}
          </div>
        </div>

        <div className="flex items-start gap-3">
          <Checkbox
            id={checkboxId}
            checked={isAgreed}
            onCheckedChange={(checked) => setIsAgreed(checked === true)}
            className="-mt-1.5"
          />
          <Label htmlFor={checkboxId} className="cursor-pointer">
            I have read and agree to the Terms of Service
          </Label>
        </div>

        <DialogFooter>
          <Button variant="outline" onClick={() => changeOpen(false)}>
            Cancel
          </Button>
          <Button
            disabled={!isAgreed}
            onClick={() => {
              setIsAgreed(false);
              onAccept();
            }}
          >
            Accept and Continue
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

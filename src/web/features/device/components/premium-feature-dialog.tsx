import { Link } from 'react-router';
import { Cloud, MonitorSmartphone, Star } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';

/** The 'Premium Feature' dialog: what the paid plans add, and the way to them. */
export default function PremiumFeatureDialog({
  onOpenChange,
}: {
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Premium Feature</DialogTitle>
          <DialogDescription>
            Choosing which device is your primary device is part of the paid plans.
          </DialogDescription>
        </DialogHeader>
        <ul className="flex flex-col gap-3 text-lg">
          <li className="flex items-start gap-3">
            <MonitorSmartphone className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
            Unlimited device sync: watch your messages on your phone, tablet and computer
          </li>
          <li className="flex items-start gap-3">
            <Cloud className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
            Automatic content backup: every message kept safe in the cloud
          </li>
        </ul>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Not now
          </Button>
          <Button asChild>
            <Link to="/premium">
              <Star aria-hidden="true" />
              Upgrade to Premium
            </Link>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

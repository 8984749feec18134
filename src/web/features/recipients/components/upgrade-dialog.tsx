import { useState } from 'react';
import { Link } from 'react-router';
import { Sparkles } from 'lucide-react';
import { PLANS } from '@shared/domain/plans';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { useAuth } from '@web/lib/auth-provider';
import { useAppConfig } from '@web/lib/app-config';
import { PlanFeatureList } from '@web/components/feature-status';
import { rememberPlanChoice } from '@web/lib/plan-choice';

const UPGRADE_TIERS = new Set(['standard', 'premium']);

/**
 * The upgrade button shows 'Coming Soon' until billing is set up; with billing, each plan
 * leads to /premium, where it is bought.
 */
export function UpgradeDialog({
  message,
  onOpenChange,
}: {
  message: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const { user } = useAuth();
  const billingEnabled = useAppConfig().data?.billingEnabled ?? false;
  return (
    <Dialog
      open={message !== null}
      onOpenChange={(open) => {
        onOpenChange(open);
        if (!open) setChosen(null);
      }}
    >
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Upgrade to add more recipients</DialogTitle>
          <DialogDescription>{message}</DialogDescription>
        </DialogHeader>
        <ul className="grid gap-4 sm:grid-cols-2">
          {PLANS.filter((plan) => UPGRADE_TIERS.has(plan.tier)).map((plan) => (
            <li
              key={plan.tier}
              className="flex flex-col gap-3 rounded-xl border-2 border-border p-5"
            >
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="text-xl font-bold">{plan.name}</h3>
                {plan.badge && (
                  <span className="rounded-full bg-warm px-3 py-0.5 text-base font-semibold text-warm-foreground">
                    {plan.badge}
                  </span>
                )}
              </div>
              <p className="text-lg font-semibold">{plan.priceLabel}</p>
              <PlanFeatureList plan={plan} />
              {billingEnabled && user ? (
                // The plans page says the price, the current plan and the trial before paying.
                <Button asChild className="mt-auto">
                  <Link to="/premium" onClick={() => rememberPlanChoice(user.id, plan.tier)}>
                    <Sparkles aria-hidden="true" />
                    Choose {plan.name}
                  </Link>
                </Button>
              ) : (
                <Button
                  className="mt-auto"
                  disabled={chosen === plan.tier}
                  onClick={() => setChosen(plan.tier)}
                >
                  <Sparkles aria-hidden="true" />
                  {chosen === plan.tier ? 'Coming Soon' : `Choose ${plan.name}`}
                </Button>
              )}
            </li>
          ))}
        </ul>
        {chosen && (
          <p role="status" className="text-base">
            Paid plans are coming soon. Your videos and recipients are safe on this device in the
            meantime.
          </p>
        )}
        <Button asChild variant="link" className="self-start">
          <Link to="/premium">See all plans</Link>
        </Button>
      </DialogContent>
    </Dialog>
  );
}

import { Link } from 'react-router';
import { Check, Clock, Sparkles } from 'lucide-react';
import { findPlan } from '@shared/domain/plans';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { useAuth } from '@web/features/auth/auth-provider';
import { PageIntro } from '@web/features/public-site/page-intro';
import { usePlanChoice } from '@web/features/public-site/plan-choice';
import { usePageTitle } from '@web/lib/use-page-title';

const premium = findPlan('premium');

/** SPEC §2 upgrade page. Payments do not exist yet, so the upgrade shows 'Coming Soon' (SPEC §8). */
export default function PremiumPage() {
  usePageTitle('Upgrade to Premium');
  const { user } = useAuth();
  const choice = usePlanChoice(user?.id);
  const chosenPlan = choice ? findPlan(choice.tier) : null;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-8">
      <PageIntro eyebrow="Upgrade" title="Upgrade to Premium">
        <p>
          Premium is for families who want every message everywhere: unlimited recipients, longer
          messages and, when cloud sync arrives, your videos on all your devices with an automatic
          backup.
        </p>
      </PageIntro>

      <Card className="flex flex-col gap-5 p-6 sm:p-8">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-2xl font-bold tracking-tight">{premium.name}</h2>
          <p className="text-2xl font-bold text-primary">{premium.priceLabel}</p>
        </div>
        <ul className="flex flex-col gap-2 text-lg">
          {[
            ...premium.highlights,
            'Unlimited device sync and automatic content backup (coming soon)',
          ].map((line) => (
            <li key={line} className="flex gap-2.5">
              <Check className="mt-1 size-5 shrink-0 text-success" aria-hidden="true" />
              <span>{line}</span>
            </li>
          ))}
        </ul>
        {user ? (
          <div className="flex flex-col gap-3">
            <Button size="lg" disabled className="self-start" aria-describedby="premium-status">
              <Clock aria-hidden="true" />
              Coming Soon
            </Button>
            <p id="premium-status" role="status" className="text-lg">
              {chosenPlan ? `We have noted that you chose ${chosenPlan.name}. ` : ''}
              Paying for a plan is not available yet. Your videos and recipients stay exactly as
              they are in the meantime.
            </p>
          </div>
        ) : (
          <Button asChild size="lg" className="self-start">
            <Link to="/auth">
              <Sparkles aria-hidden="true" />
              Sign in to upgrade
            </Link>
          </Button>
        )}
      </Card>

      <Button asChild variant="link" className="self-start text-lg">
        <Link to="/features">Compare all plans</Link>
      </Button>
    </div>
  );
}

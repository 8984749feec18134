import { Link } from 'react-router';
import { Sparkles } from 'lucide-react';
import { hasFullAccess } from '@shared/domain/plan-limits';
import { EncryptionLink } from '@web/components/encryption-link';
import { Button } from '@web/components/ui/button';
import { useAuth } from '@web/lib/auth-provider';
import {
  CheckoutReturnNotice,
  useCheckoutReturn,
} from '@web/features/billing/components/checkout-return';
import { PremiumPlans } from '@web/features/billing/components/premium-plans';
import { hasPlanToDescribe, YourPlan } from '@web/features/billing/components/your-plan';
import { useAppConfig } from '@web/lib/app-config';
import { PageIntro } from '@web/features/public-site/page-intro';
import { usePageTitle } from '@web/lib/use-page-title';

/**
 * The plans page every upgrade leads to: the plans from the one list, the current one marked, and
 * a button for each — checkout with billing switched on, the remembered choice with 'Coming Soon'
 * without it. An account holder with a plan sees how it stands and 'Manage billing'.
 */
export default function PremiumPage() {
  const { user } = useAuth();
  const config = useAppConfig();
  const isAccountHolder = user?.category === 'primary';
  const checkout = useCheckoutReturn({ enabled: isAccountHolder });
  const billing = checkout.billingQuery.data;
  // Unknown until one of the two answers: the page never says payments are off while it asks.
  const billingEnabled = billing?.enabled ?? config.data?.billingEnabled;
  const hasPlan = user ? user.subscriptionTier !== 'free' || hasFullAccess(user) : false;
  const title = hasPlan ? 'Your plan' : 'Upgrade to Premium';
  usePageTitle(title);

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-8">
      <PageIntro eyebrow="Plans" title={title}>
        <p>
          {hasPlan
            ? billing?.enabled && billing.canManage
              ? 'How your plan stands. Change your plan or your card, see invoices, or cancel in Manage billing.'
              : 'What your plan includes, beside the other plans.'
            : 'Paid plans copy every message safely to the cloud, so your family can watch on their own phone or computer. They also allow more recipients and longer messages.'}
        </p>
        {billingEnabled === false && (
          <p className="mt-3">
            Paying for a plan is not available yet. You can choose a plan and we will note it;
            nothing is charged.
          </p>
        )}
      </PageIntro>

      {user && <CheckoutReturnNotice phase={checkout.phase} billing={billing} />}

      {user && isAccountHolder && billing && hasPlanToDescribe(user, billing) && (
        <YourPlan user={user} billing={billing} />
      )}

      {/* Sealing messages in the browser comes with the paid plans. */}
      {user && isAccountHolder && hasPlan && <EncryptionLink />}

      {user && !isAccountHolder && (
        <p className="text-lg">
          Plans are chosen by the person who records messages for you. Everything here is for them.
        </p>
      )}

      {!user && (
        <Button asChild size="lg" className="self-start">
          <Link to="/auth">
            <Sparkles aria-hidden="true" />
            Sign in to upgrade
          </Link>
        </Button>
      )}

      <PremiumPlans
        context={{
          user,
          billing,
          billingEnabled,
          isConfirming: checkout.phase === 'confirming' || checkout.phase === 'slow',
        }}
      />

      <div className="flex flex-col gap-1 text-lg">
        <p>
          Enterprise and Nonprofit plans for larger organisations and charities are arranged
          directly with each organisation.
        </p>
        <Button asChild variant="link" className="self-start text-lg">
          <Link to="/features">Compare all plans</Link>
        </Button>
      </div>
    </div>
  );
}

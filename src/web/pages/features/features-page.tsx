import { Link } from 'react-router';
import { Building2, User } from 'lucide-react';
import { CARE_HOME_TRIAL_DAYS, PLANS } from '@shared/domain/plans';
import { OrganisationExtras } from '@web/components/feature-status';
import { PlanCard } from '@web/components/plan-card';
import { PageIntro } from '@web/features/public-site/page-intro';
import { usePageTitle } from '@web/lib/use-page-title';
import {
  DevicesSection,
  FeatureStatusSection,
  PrivacySection,
  SectionHeading,
} from './features-sections';

const individualPlans = PLANS.filter((plan) => plan.audience === 'individual');
const organisationPlans = PLANS.filter((plan) => plan.audience === 'organisation');

export default function FeaturesPage() {
  usePageTitle('Features & Pricing');

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-12 sm:gap-16">
      <PageIntro eyebrow="Plans" title="Features & Pricing">
        <p>
          Start free with the Community Edition, which keeps every video on your own device. Paid
          plans add more recipients, longer messages and a copy in the cloud. Anything not finished
          yet carries its status, as in the list of what works today.
        </p>
      </PageIntro>

      <section aria-labelledby="individual-heading" className="flex flex-col gap-6">
        <SectionHeading id="individual-heading" icon={<User aria-hidden="true" />}>
          Plans for individuals and families
        </SectionHeading>
        <ul className="grid gap-5 lg:grid-cols-3">
          {individualPlans.map((plan) => (
            <PlanCard key={plan.tier} plan={plan} />
          ))}
        </ul>
      </section>

      <section aria-labelledby="organisation-heading" className="flex flex-col gap-6">
        <SectionHeading id="organisation-heading" icon={<Building2 aria-hidden="true" />}>
          Plans for care homes and organisations
        </SectionHeading>
        <p className="max-w-3xl text-lg">
          <OrganisationExtras /> Care homes can try them free for {CARE_HOME_TRIAL_DAYS} days.
          Verified charities pay half the Enterprise price.
        </p>
        <ul className="grid gap-5 lg:grid-cols-3">
          {organisationPlans.map((plan) => (
            <PlanCard key={plan.tier} plan={plan} />
          ))}
        </ul>
        <p className="text-lg">
          Presenting Memento to residents, families or a board? Use our{' '}
          <Link to="/marketing" className="font-semibold text-primary underline underline-offset-4">
            slides for care homes
          </Link>
          .
        </p>
      </section>

      <DevicesSection />

      <PrivacySection />

      <FeatureStatusSection />

      <p className="text-lg">
        Recording memories can stir up strong feelings. Free, confidential help is listed on our{' '}
        <Link to="/support" className="font-semibold text-primary underline underline-offset-4">
          Wellbeing and Support Resources
        </Link>{' '}
        page.
      </p>
    </div>
  );
}

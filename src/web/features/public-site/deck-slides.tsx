import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  Check,
  HardDrive,
  HeartHandshake,
  KeyRound,
  ScrollText,
  ShieldCheck,
  Users,
  Video,
} from 'lucide-react';
import { CARE_HOME_TRIAL_DAYS, PLANS } from '@shared/domain/plans';
import {
  OrganisationExtras,
  PlanFeatureList,
  UnfinishedNote,
} from '@web/components/feature-status';
import { PlanBadge } from '@web/components/plan-card';

export interface TSlide {
  id: string;
  title: string;
  content: ReactNode;
}

function Points({ items }: { items: readonly ReactNode[] }) {
  return (
    <ul className="flex flex-col gap-3 text-lg sm:text-xl">
      {items.map((item, index) => (
        <li key={index} className="flex gap-3">
          <Check className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

interface FeatureTileProps {
  icon: ReactNode;
  title: string;
  children: ReactNode;
}

function FeatureTile({ icon, title, children }: FeatureTileProps) {
  return (
    <li className="flex gap-3 rounded-lg bg-muted p-4">
      <span className="mt-0.5 text-primary [&>svg]:size-7">{icon}</span>
      <span className="flex flex-col gap-0.5">
        <span className="text-lg font-bold">{title}</span>
        <span className="text-base">{children}</span>
      </span>
    </li>
  );
}

const inlineLink = 'font-semibold text-primary underline underline-offset-4';

/** One row a plan, its lines running on beneath its name. */
function PricingSlide() {
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col divide-y-2 divide-border rounded-lg border-2 border-border">
        {PLANS.map((plan) => (
          <li
            key={plan.tier}
            aria-labelledby={`deck-plan-${plan.tier}`}
            // On paper the name and price run on with the lines: six plans fit one page.
            className="flex flex-col gap-1 px-4 py-2 print:flex-row print:py-1 print:flex-wrap print:items-center print:gap-x-5 print:gap-y-0.5"
          >
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 print:contents">
              <h3 id={`deck-plan-${plan.tier}`} className="text-lg font-bold">
                {plan.name}
              </h3>
              <span className="text-lg font-semibold text-primary">{plan.priceLabel}</span>
              <PlanBadge badge={plan.badge} />
            </div>
            <PlanFeatureList plan={plan} layout="flowing" className="print:contents" />
          </li>
        ))}
      </ul>
      <UnfinishedNote lines={PLANS.flatMap((plan) => plan.features)} />
      <p className="text-lg font-semibold">
        Care homes can try the organisation plans free for {CARE_HOME_TRIAL_DAYS} days.
      </p>
    </div>
  );
}

/** The eight slides of the care-home deck, in order. */
export const SLIDES: readonly TSlide[] = [
  {
    id: 'title',
    title: 'Memento for Care Homes',
    content: (
      <div className="flex flex-col gap-4 text-xl sm:text-2xl">
        <p>Video messages from your residents, kept safe for the people they love.</p>
        <p className="text-lg text-muted-foreground sm:text-xl">
          A digital legacy service for residents, families and care providers.
        </p>
      </div>
    ),
  },
  {
    id: 'challenge',
    title: 'The Challenge',
    content: (
      <Points
        items={[
          'Families live far away, and visits are not always possible.',
          'Stories, advice and a familiar voice are lost when they are never recorded.',
          'Many apps are too complicated for older people, or hand their data to others.',
          'Staff have little time to help with technology.',
        ]}
      />
    ),
  },
  {
    id: 'solution',
    title: 'Our Solution',
    content: (
      <Points
        items={[
          'A calm app with large text and large buttons, made for older hands and eyes.',
          'Residents record short video messages for each person they love.',
          'Messages stay on the resident’s own device unless the plan adds the cloud.',
          'A next of kin is always named, with emergency access if it is ever needed.',
        ]}
      />
    ),
  },
  {
    id: 'features',
    title: 'Key Features',
    content: (
      <ul className="grid gap-3 sm:grid-cols-2">
        <FeatureTile icon={<Video aria-hidden="true" />} title="Guided recording">
          Prompts suggest what to talk about; recordings are saved as they are made.
        </FeatureTile>
        <FeatureTile icon={<Users aria-hidden="true" />} title="Recipients">
          Family and friends sign in with their email and a personal access code.
        </FeatureTile>
        <FeatureTile icon={<KeyRound aria-hidden="true" />} title="Next of kin access">
          An emergency code lets the next of kin take over when the time comes.
        </FeatureTile>
        <FeatureTile icon={<HardDrive aria-hidden="true" />} title="Backups">
          One file holds every video, to keep somewhere safe.
        </FeatureTile>
      </ul>
    ),
  },
  {
    id: 'security',
    title: 'Security and Privacy',
    content: (
      <ul className="grid gap-3 sm:grid-cols-2">
        <FeatureTile icon={<HardDrive aria-hidden="true" />} title="Local first">
          Community Edition videos never leave the device; the server keeps only an index.
        </FeatureTile>
        <FeatureTile icon={<ShieldCheck aria-hidden="true" />} title="Guarded accounts">
          Each account is bound to its device; passwords are hashed and guessing is blocked.
        </FeatureTile>
        <FeatureTile icon={<ScrollText aria-hidden="true" />} title="Everything recorded">
          Every sign-in and emergency attempt is written in a security log.
        </FeatureTile>
        <FeatureTile icon={<HeartHandshake aria-hidden="true" />} title="No trackers">
          No adverts from others and no tracking scripts.
        </FeatureTile>
      </ul>
    ),
  },
  { id: 'pricing', title: 'Pricing Plans', content: <PricingSlide /> },
  {
    id: 'benefits',
    title: 'Benefits for Care Homes',
    content: (
      <Points
        items={[
          'A meaningful activity that residents and families value.',
          'Reassurance for families that messages are private and safe.',
          'Simple enough for residents to use with a little help from staff.',
          <OrganisationExtras key="extras" />,
        ]}
      />
    ),
  },
  {
    id: 'get-started',
    title: 'Get Started',
    content: (
      <div className="flex flex-col gap-4 text-lg sm:text-xl">
        <ol className="flex list-decimal flex-col gap-3 pl-7">
          <li>
            Create a free Community Edition account:{' '}
            <Link to="/auth?mode=community" className={inlineLink}>
              Create Your Account
            </Link>
            .
          </li>
          <li>
            Compare the plans:{' '}
            <Link to="/features" className={inlineLink}>
              Features &amp; Pricing
            </Link>
            .
          </li>
          <li>
            Ask the team that runs your Memento about the {CARE_HOME_TRIAL_DAYS}-day care-home
            trial.
          </li>
        </ol>
        <p className="text-muted-foreground">
          Wellbeing and support resources for residents and families:{' '}
          <Link to="/support" className={inlineLink}>
            Counselling &amp; Support
          </Link>
          .
        </p>
      </div>
    ),
  },
];

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Accordion } from 'radix-ui';
import { ChevronDown } from 'lucide-react';
import { findPlan, PAID_TIERS, PLANS } from '@shared/domain/plans';
import { PlanFeatureList } from '@web/components/feature-status';
import { PageIntro } from '@web/features/public-site/page-intro';
import { usePageTitle } from '@web/lib/use-page-title';

interface TFaqItem {
  id: string;
  question: string;
  answer: ReactNode;
}

const inlineLink = 'font-semibold text-primary underline underline-offset-4';

function minutesFor(seconds: number): string {
  const minutes = seconds / 60;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

const [FREE_PLAN, STANDARD_PLAN, PREMIUM_PLAN] = PLANS;

/** The paid plans' lines as the plan cards show them, unfinished parts marked. */
function PaidPlanContents() {
  return (
    <ul className="flex flex-col gap-4">
      {PAID_TIERS.map((tier) => {
        const plan = findPlan(tier);
        return (
          <li
            key={tier}
            aria-labelledby={`faq-plan-${tier}`}
            className="flex flex-col gap-2 rounded-lg border-2 border-border p-4"
          >
            <h3 id={`faq-plan-${tier}`} className="text-lg font-bold">
              {plan.name}
            </h3>
            <p className="font-semibold text-primary">{plan.priceLabel}</p>
            <PlanFeatureList plan={plan} />
          </li>
        );
      })}
    </ul>
  );
}

/** The six questions the product asks for, answered as this build actually behaves. */
const FAQ_ITEMS: readonly TFaqItem[] = [
  {
    id: 'security',
    question: 'How secure are my videos and my account?',
    answer: (
      <>
        <p>
          With the free Community Edition, your videos are saved inside this browser on this device
          and are never uploaded. Our server holds only a short index of each video (when it was
          made, its size and length, and who it is for), never the video or its title.
        </p>
        <p>
          Your account is tied to your own device. Passwords and codes are stored only as one-way
          hashes, repeated wrong guesses are blocked, and every sign-in and change is written in a
          security log you can read from your dashboard.
        </p>
        <p>
          On paid plans a copy of each message is kept on our server so your recipients can watch
          it. Enhanced encryption, where an installation has switched it on, seals that copy in your
          own browser with a key our server never has. Even then, our server still sees your account
          details, who you record for and how often, the size of each message (and so roughly its
          length), when messages are made, sent and watched, your sign-ins and devices, and your
          release rules and dates: it needs these to deliver each message at the right time.
        </p>
      </>
    ),
  },
  {
    id: 'lost-access',
    question: 'What happens if I lose access, or something happens to me?',
    answer: (
      <>
        <p>
          If you forget your password, choose ‘Forgot your password?’ on the sign-in page and we
          email you a reset code. If your device is lost or replaced, sign in on the new one with
          your password and a code sent to your email moves your account there. On a paid plan the
          new device then brings every message down from the cloud by itself. On the free plan,
          choose ‘Move my messages to a new device’ on the old one: the videos go straight across
          your own network, never through our server. A backup file works too.
        </p>
        <p>
          When you set up Memento you name a next of kin. They receive an emergency code by email.
          With their email address and that code they can reset your password. Every attempt is
          recorded in your security log, you are told by email when it is used, and the code is
          replaced each time.
        </p>
        <p>
          With enhanced encryption on, a new password alone does not open your sealed messages. A
          device you unlocked, your old password or your printed recovery sheet does. If all of
          those are lost, your next of kin’s emergency card opens them on your account after your
          own waiting period (7 days unless you chose another). We email you the moment it starts,
          with a link that stops it. After your legacy is released, the card lets your next of kin
          act for you: open your messages and make a new card for anyone who lost theirs.
        </p>
        <p>
          With enhanced encryption on, we never email an access code: a code our server has seen
          could open your messages. You give each recipient their card yourself, printed or shared
          from your phone.
        </p>
      </>
    ),
  },
  {
    id: 'recipients',
    question: 'Who can see my messages, and can I change that?',
    answer: (
      <>
        <p>
          You decide. Each message is recorded for one recipient you have added: your next of kin,
          family or friends. You can add and remove recipients at any time; removing one also
          removes the messages you recorded for them, and Memento tells you how many first.
        </p>
        <p>
          Recipients sign in with their email address and a personal access code that you share with
          them. With the Community Edition your videos stay on your device, so to give someone their
          messages you save them as ordinary video files from the Recipients page.
        </p>
      </>
    ),
  },
  {
    id: 'recording',
    question: 'How do I record a message?',
    answer: (
      <>
        <p>
          From your dashboard choose ‘Record New Video Message’. Give the message a title, choose
          who it is for, pick a prompt if you would like an idea to talk about, then turn on the
          camera and press ‘Start Recording’. Your recording is saved on the device as you go, so a
          closed tab or a flat battery does not lose it.
        </p>
        <p>
          A message can be up to {minutesFor(FREE_PLAN!.maxRecordingSeconds)} long on the Community
          Edition, {minutesFor(STANDARD_PLAN!.maxRecordingSeconds)} on Standard and{' '}
          {minutesFor(PREMIUM_PLAN!.maxRecordingSeconds)} on Premium. You can record as many
          messages as you like.
        </p>
      </>
    ),
  },
  {
    id: 'storage',
    question: 'How much can I store?',
    answer: (
      <>
        <p>
          The Community Edition lets you record for your next of kin plus {FREE_PLAN!.maxRecipients}{' '}
          more recipient. Standard allows up to {STANDARD_PLAN!.maxRecipients} recipients and
          Premium has no limit; see{' '}
          <Link to="/features" className={inlineLink}>
            Features &amp; Pricing
          </Link>
          .
        </p>
        <p>
          The number of videos is limited only by the free space your browser allows on this device.
          Your dashboard shows how much space Memento uses and how much is still free.
        </p>
        <p>What each paid plan includes:</p>
        <PaidPlanContents />
      </>
    ),
  },
  {
    id: 'uninstalling',
    question: 'What happens if I uninstall the app or clear my browser?',
    answer: (
      <>
        <p>
          Because Community Edition videos live only in this browser, uninstalling the app, clearing
          the browser’s site data or resetting the device deletes them, and we cannot get them back.
          Some browsers, such as Safari, may also clear a website’s data if it has not been used for
          a while.
        </p>
        <p>
          So before you do any of these, download a backup from your dashboard and keep the file
          somewhere safe, such as a USB stick or a family member’s computer. You can restore it onto
          your account later, and nothing is duplicated if you restore it twice.
        </p>
      </>
    ),
  },
];

export default function FaqPage() {
  usePageTitle('Frequently Asked Questions');

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-8">
      <PageIntro eyebrow="Help" title="Frequently Asked Questions">
        <p>
          Plain answers about how Memento keeps your messages. Choose a question to read its answer.
        </p>
      </PageIntro>

      <Accordion.Root type="multiple" className="flex flex-col gap-3">
        {FAQ_ITEMS.map((item) => (
          <Accordion.Item
            key={item.id}
            value={item.id}
            className="overflow-hidden rounded-xl border-2 border-border bg-card shadow-soft"
          >
            <Accordion.Header asChild>
              <h2>
                <Accordion.Trigger className="group flex min-h-16 w-full cursor-pointer items-center justify-between gap-4 px-5 py-4 text-left text-lg font-bold hover:bg-muted sm:px-6 sm:text-xl">
                  {item.question}
                  <ChevronDown
                    className="size-6 shrink-0 text-primary transition-transform duration-200 group-data-[state=open]:rotate-180"
                    aria-hidden="true"
                  />
                </Accordion.Trigger>
              </h2>
            </Accordion.Header>
            <Accordion.Content className="flex flex-col gap-3 border-t border-border px-5 py-5 text-lg leading-relaxed sm:px-6">
              {item.answer}
            </Accordion.Content>
          </Accordion.Item>
        ))}
      </Accordion.Root>

      <p className="text-lg">
        Feeling low, or grieving? Our{' '}
        <Link to="/support" className={inlineLink}>
          Wellbeing and Support Resources
        </Link>{' '}
        list free, confidential services.
      </p>
    </div>
  );
}

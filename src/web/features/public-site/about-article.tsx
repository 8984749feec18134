import type { ReactNode } from 'react';
import { Code, HandHeart, HardDrive, Heart, LockKeyhole, ShieldCheck } from 'lucide-react';
import { Card } from '@web/components/ui/card';
import { useAppConfig } from '@web/lib/app-config';
import { usePageTitle } from '@web/lib/use-page-title';
import { ExternalLinkButton } from './external-link-button';
import { PageIntro } from './page-intro';

interface ArticleSectionProps {
  id: string;
  title: string;
  icon: ReactNode;
  children: ReactNode;
}

function ArticleSection({ id, title, icon, children }: ArticleSectionProps) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <h2 id={id} className="flex items-center gap-3 text-2xl font-bold tracking-tight sm:text-3xl">
        <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary [&>svg]:size-6">
          {icon}
        </span>
        {title}
      </h2>
      <div className="flex flex-col gap-4 text-lg leading-relaxed">{children}</div>
    </section>
  );
}

const SECURITY_POINTS = [
  'Your account belongs to one device: your own phone, tablet or computer. Moving it to a new device needs your password and a code sent to your email.',
  'Passwords and codes are stored only as one-way hashes (argon2id), so nobody, not even the people who run Memento, can read them.',
  'Repeated wrong guesses are slowed down and then stopped, for every account and every address.',
  'Your next of kin holds an emergency code. If it is ever used, you are told by email and the attempt is written in your security log.',
  'Every sign-in, password reset and change to your account is recorded in a security log that you can read.',
] as const;

function SupportMementoCard() {
  const config = useAppConfig();
  const donationUrl = config.data?.donationUrl;
  const sourceCodeUrl = config.data?.sourceCodeUrl;
  if (!donationUrl && !sourceCodeUrl) return null;

  return (
    <Card asChild className="flex flex-col gap-4 p-6 sm:p-8">
      <aside aria-labelledby="support-memento-heading">
        <h2
          id="support-memento-heading"
          className="flex items-center gap-3 text-2xl font-bold tracking-tight"
        >
          <Heart className="size-6 text-primary" aria-hidden="true" />
          Support Memento
        </h2>
        <p className="text-lg">
          Memento is free for families. If it has helped you, you can support its work or read
          exactly how it is built.
        </p>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          {donationUrl && (
            <ExternalLinkButton href={donationUrl} icon={<HandHeart aria-hidden="true" />}>
              Make a Donation
            </ExternalLinkButton>
          )}
          {sourceCodeUrl && (
            <ExternalLinkButton
              href={sourceCodeUrl}
              variant="outline"
              icon={<Code aria-hidden="true" />}
            >
              View the Source Code
            </ExternalLinkButton>
          )}
        </div>
      </aside>
    </Card>
  );
}

/**
 * The About story (/about and /about-memento): mission, security, hybrid storage and privacy,
 * laid out like a blog post. Every claim here must stay true to how the app works.
 */
export function AboutArticle({ title }: { title: string }) {
  usePageTitle(title);

  return (
    <article className="mx-auto flex w-full max-w-3xl flex-col gap-10 py-2 sm:gap-12">
      <PageIntro eyebrow="Our story" title={title}>
        <p>
          Memento helps people record video messages for the people they love, to be watched today
          or kept for the years ahead. It is built for everyone, including people in their nineties
          with a nurse or grandchild beside them.
        </p>
      </PageIntro>

      <ArticleSection id="mission-heading" title="Our mission" icon={<Heart aria-hidden="true" />}>
        <p>
          A voice, a smile, a story told in your own words: these are the things families treasure
          most, and they are easily lost. Our mission is to make leaving them simple, private and
          dependable, whether you live at home or in a care home.
        </p>
        <p>
          A legacy app has one job: never lose a message. Everything in Memento is built around
          keeping your recordings safe and making sure the right people, and only the right people,
          can reach them.
        </p>
      </ArticleSection>

      <ArticleSection
        id="security-heading"
        title="Security you can understand"
        icon={<ShieldCheck aria-hidden="true" />}
      >
        <ul className="flex flex-col gap-3">
          {SECURITY_POINTS.map((point) => (
            <li key={point} className="flex gap-3">
              <LockKeyhole className="mt-1 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>{point}</span>
            </li>
          ))}
        </ul>
      </ArticleSection>

      <ArticleSection
        id="storage-heading"
        title="Hybrid storage: your device first"
        icon={<HardDrive aria-hidden="true" />}
      >
        <p>
          With the free Community Edition, your videos are saved inside this browser on this device.
          They are never uploaded. Our server keeps only a short index of each video (when it was
          made, its size and length, and who it is for) so that Memento can warn you if videos go
          missing from the device. It never holds the video itself or its title.
        </p>
        <p>
          Because the videos live on one device, Memento asks the browser to keep them safe, shows
          how much space is left, and lets you download a backup file to keep somewhere else. Paid
          plans will add a copy in the cloud so recipients can watch on their own devices; that part
          is not available yet.
        </p>
      </ArticleSection>

      <ArticleSection
        id="privacy-heading"
        title="Our privacy commitment"
        icon={<LockKeyhole aria-hidden="true" />}
      >
        <p>
          Private by default means no adverts from others and no tracking scripts. The only banner
          you will see promotes our own plans. If the people who run this Memento ever turn on
          visitor counting, it loads only after you agree to it in Cookie preferences.
        </p>
        <p>
          We keep what the service needs to work: your account, your recipients’ names and email
          addresses, the video index described above, and your security log. We never sell it and
          never share it for marketing.
        </p>
      </ArticleSection>

      <SupportMementoCard />
    </article>
  );
}

import type { ReactNode } from 'react';
import { CircleCheck, Cloud, HardDrive, MonitorSmartphone, Server } from 'lucide-react';
import { FEATURES } from '@shared/domain/feature-status';
import { PLANS } from '@shared/domain/plans';
import { Card } from '@web/components/ui/card';
import { StatusBadge } from '@web/components/feature-status';

export function SectionHeading({
  id,
  icon,
  children,
}: {
  id: string;
  icon: ReactNode;
  children: string;
}) {
  return (
    <h2
      id={id}
      className="flex items-center gap-3 text-2xl font-bold tracking-tight sm:text-3xl [&>svg]:size-7 [&>svg]:shrink-0 [&>svg]:text-primary"
    >
      {icon}
      {children}
    </h2>
  );
}

const deviceLimits = PLANS.filter((plan) => plan.maxDevices !== null && plan.tier !== 'free')
  .map((plan) => `${plan.maxDevices} on ${plan.name}`)
  .join(', ');

/** One primary device, more on paid plans, and moving to a new one. */
export function DevicesSection() {
  return (
    <Card asChild className="flex flex-col gap-4 p-6 sm:p-8">
      <section aria-labelledby="devices-heading">
        <SectionHeading id="devices-heading" icon={<MonitorSmartphone aria-hidden="true" />}>
          How devices work
        </SectionHeading>
        <div className="flex max-w-3xl flex-col gap-3 text-lg">
          <p>
            Your account belongs to one primary device, the phone, tablet or computer you registered
            on. Only the primary device records messages, and with the Community Edition it is the
            only device you sign in from.
          </p>
          <p>
            Paid plans allow more devices ({deviceLimits}). Your other devices play your messages
            from the cloud; recording stays on the primary device, and you can make another device
            primary at any time.
          </p>
          <p>
            If your device is lost or replaced, your password and a code sent to your email move
            your account to the new one. Videos move with a backup file.
          </p>
        </div>
      </section>
    </Card>
  );
}

/** What never leaves the device, what the server holds, and what cloud sync adds. */
export function PrivacySection() {
  return (
    <section aria-labelledby="privacy-heading" className="flex flex-col gap-6">
      <SectionHeading id="privacy-heading" icon={<HardDrive aria-hidden="true" />}>
        Your privacy, exactly
      </SectionHeading>
      <div className="grid gap-5 md:grid-cols-2">
        <Card className="flex flex-col gap-3 p-6">
          <h3 className="flex items-center gap-2.5 text-xl font-bold">
            <HardDrive className="size-6 text-success" aria-hidden="true" />
            Never leaves your device
          </h3>
          <p className="text-lg">With the Community Edition:</p>
          <ul className="flex list-disc flex-col gap-1.5 pl-6 text-lg">
            <li>your videos themselves</li>
            <li>their titles</li>
            <li>the prompts you chose to talk about</li>
          </ul>
        </Card>
        <Card className="flex flex-col gap-3 p-6">
          <h3 className="flex items-center gap-2.5 text-xl font-bold">
            <Server className="size-6 text-primary" aria-hidden="true" />
            What our server holds
          </h3>
          <ul className="flex list-disc flex-col gap-1.5 pl-6 text-lg">
            <li>your account: name, username, email and a hashed password</li>
            <li>your recipients’ names and email addresses, and your next of kin’s phone</li>
            <li>
              an index of each video without its title: who it is for, when it was made, its size,
              length and type
            </li>
            <li>your security log of sign-ins and changes</li>
          </ul>
        </Card>
        <Card className="flex flex-col gap-3 p-6 md:col-span-2">
          <h3 className="flex items-center gap-2.5 text-xl font-bold">
            <Cloud className="size-6 text-primary" aria-hidden="true" />
            With cloud sync (Standard and above)
          </h3>
          <p className="text-lg">
            So that your recipients can watch on their own phones and your messages outlive this
            device, the server also keeps:
          </p>
          <ul className="flex list-disc flex-col gap-1.5 pl-6 text-lg">
            <li>
              a copy of each video, under a random name, checked to match the one on your device
            </li>
            <li>its title and the prompt you chose, so your recipients see what it is</li>
          </ul>
          <p className="text-lg">
            Only you and the person a message is for can watch it. Deleting a message deletes its
            cloud copy. If you move back to the Community Edition, the copies are kept for 30 days
            so you can keep every message on your device, then deleted.
          </p>
        </Card>
      </div>
    </section>
  );
}

/** Where each feature stands in this version. */
export function FeatureStatusSection() {
  return (
    <section aria-labelledby="status-heading" className="flex flex-col gap-6">
      <SectionHeading id="status-heading" icon={<CircleCheck aria-hidden="true" />}>
        What works today
      </SectionHeading>
      <p className="max-w-3xl text-lg">
        An honest list of where each feature stands in this version of Memento.
      </p>
      <ul className="flex flex-col gap-3">
        {FEATURES.map((feature) => (
          <li
            key={feature.id}
            id={`feature-${feature.id}`}
            className="flex flex-col gap-2 rounded-xl border-2 border-border bg-card p-5 sm:flex-row sm:items-start sm:justify-between sm:gap-6"
          >
            <div className="flex flex-col gap-1">
              <h3 className="text-lg font-bold">{feature.name}</h3>
              <p className="text-lg text-muted-foreground">{feature.description}</p>
            </div>
            <StatusBadge status={feature.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}

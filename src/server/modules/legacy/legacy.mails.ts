import type { OutgoingMail } from '../mail/mail.repository';
import { fullName, render, type MailBrand, type Person } from '../mail/mail-layout';

/** A moment as the person reads it: their own time zone where we know it, else UTC said so. */
export function formatMoment(date: Date, timeZone: string | null): string {
  const zone = timeZone ?? 'UTC';
  try {
    const text = new Intl.DateTimeFormat('en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone,
    }).format(date);
    return timeZone ? text : `${text} (UTC)`;
  } catch {
    return formatMoment(date, null);
  }
}

export function formatDay(date: Date, timeZone: string | null): string {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: timeZone ?? 'UTC',
    }).format(date);
  } catch {
    return formatDay(date, null);
  }
}

interface ReleaseMailInput {
  owner: Person & { timeZone: string | null };
  nextOfKin: Person;
  releasesAt: Date;
  cancelUrl: string;
  /** How long the asker must wait before asking again after a cancel. */
  askAgainAfterDays: number;
  /** The asker's emergency card holds the account key: the release hands it to them. */
  isKeyHandedOver?: boolean;
}

/** To the owner at once, and again halfway and the day before. */
export function releaseRequestedMail(
  input: ReleaseMailInput & { reminder: 'none' | 'halfway' | 'last_day' },
): OutgoingMail {
  const when = formatMoment(input.releasesAt, input.owner.timeZone);
  const subject = {
    none: `${input.nextOfKin.firstName} has asked to release your Memento legacy`,
    halfway: `Reminder: your Memento legacy will be released on ${formatDay(input.releasesAt, input.owner.timeZone)}`,
    last_day: 'Tomorrow: your Memento legacy will be released',
  }[input.reminder];
  return render({
    to: input.owner.email,
    subject,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `${fullName(input.nextOfKin)}, your next of kin, has asked to release your legacy on Memento. If you do nothing, the messages you set to open 'After my legacy is released' will open for the people you recorded them for on ${when}.`,
      ...(input.isKeyHandedOver
        ? [
            `From then on, ${input.nextOfKin.firstName}’s emergency card will also open all your sealed messages.`,
          ]
        : []),
      `If you are well and do not want this, cancel it with the button below. One click is enough; you do not need your password. You can also cancel from Memento on any of your devices.`,
      `If you did expect this, there is nothing to do.`,
      `After you cancel, ${input.nextOfKin.firstName} cannot ask again for ${input.askAgainAfterDays} days. If you do not want ${input.nextOfKin.firstName} to ask at all, sign in to Memento, open Legacy release and choose 'Stop ${input.nextOfKin.firstName} from asking'. You can allow it again at any time.`,
    ],
    action: { label: 'Cancel this release', url: input.cancelUrl },
  });
}

/** To the next of kin when the owner cancels: they should hear it from us, plainly. */
export function releaseCancelledMail(input: {
  owner: Person;
  nextOfKin: Person;
  brand?: MailBrand | undefined;
}): OutgoingMail {
  return render({
    to: input.nextOfKin.email,
    subject: `${input.owner.firstName} has cancelled the release of their legacy`,
    greeting: `Dear ${input.nextOfKin.firstName},`,
    paragraphs: [
      `${fullName(input.owner)} has cancelled your request to release their legacy on Memento, so their messages stay as they are.`,
      `If you are worried about ${input.owner.firstName}, please get in touch with them or with the people who care for them.`,
    ],
    brand: input.brand,
  });
}

/**
 * To a recipient when a message for them opens: on its date, or with the owner's legacy (one
 * email however many messages opened).
 */
export function messageOpenMail(input: {
  owner: Person;
  recipient: Person;
  appUrl: string;
  opensWith: 'date' | 'legacy';
  brand?: MailBrand | undefined;
}): OutgoingMail {
  const { owner, recipient } = input;
  const byDate = input.opensWith === 'date';
  return render({
    to: recipient.email,
    subject: byDate
      ? `A message from ${owner.firstName} has opened for you`
      : `${owner.firstName} left a message for you on Memento`,
    greeting: `Dear ${recipient.firstName},`,
    paragraphs: [
      byDate
        ? `${fullName(owner)} recorded a message for you on Memento and chose today for you to watch it.`
        : `${fullName(owner)} recorded a message for you on Memento, to be opened when their legacy was released. It is ready for you now.`,
      'Sign in with this email address and your access code to watch it, whenever you are ready.',
    ],
    action: { label: 'Open Memento', url: input.appUrl },
    brand: input.brand,
  });
}

/** To the owner who has not signed in for the months they chose. */
export function inactivityReminderMail(input: {
  owner: Person;
  months: number;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: 'Are you well? Please sign in to Memento',
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `You have not signed in to Memento for ${input.months} months. You asked us to check on you after that long.`,
      `Please sign in on your device to let us know you are well. If we do not hear from you after a few reminders, we will tell your next of kin that they may ask to release your legacy. You would be emailed and could still cancel it.`,
    ],
    action: { label: 'Open Memento', url: input.appUrl },
  });
}

/** To the next of kin when the owner did not answer the inactivity reminders. */
export function inactivityNextOfKinMail(input: {
  owner: Person;
  nextOfKin: Person;
  months: number;
  appUrl: string;
  brand?: MailBrand | undefined;
}): OutgoingMail {
  return render({
    to: input.nextOfKin.email,
    subject: `${input.owner.firstName} has not signed in to Memento for a long time`,
    greeting: `Dear ${input.nextOfKin.firstName},`,
    paragraphs: [
      `${fullName(input.owner)} has not signed in to Memento for ${input.months} months and has not answered our reminders. They asked us to tell you if this happened.`,
      `If you believe something has happened to ${input.owner.firstName}, you can ask to release their legacy: sign in to Memento with your email and access code and choose 'Ask to release ${input.owner.firstName}'s legacy'. You will need your emergency code. ${input.owner.firstName} will be told and can still cancel it.`,
    ],
    action: { label: 'Open Memento', url: input.appUrl },
    brand: input.brand,
  });
}

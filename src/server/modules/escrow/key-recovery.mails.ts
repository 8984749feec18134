import { formatDay, formatMoment } from '../legacy/legacy.mails';
import type { OutgoingMail } from '../mail/mail.repository';
import { fullName, renderFor, type MailBrand, type Person } from '../mail/mail-layout';

type Owner = Person & { timeZone: string | null };

/**
 * To the owner at once: someone signed in to their account holding the next of kin's card and
 * asked for it to open their sealed messages. One click stops it; no password needed, since the
 * password may be the very thing taken.
 */
export function recoveryStartedOwnerMail(input: {
  owner: Owner;
  nextOfKin: Person;
  opensAt: Date;
  cancelUrl: string;
}): OutgoingMail {
  const { owner, nextOfKin } = input;
  return renderFor(owner, {
    subject: 'Someone asked to open your sealed Memento messages',
    paragraphs: [
      `Someone signed in to your Memento account and asked for ${fullName(nextOfKin)}’s emergency card to open your sealed messages, because the password, the devices and the recovery sheet that open them were lost.`,
      `If you do nothing, the card opens them on ${formatMoment(input.opensAt, owner.timeZone)}.`,
      `If this was not you, or you did not agree to it, stop it with the button below. One click is enough; you do not need your password. Then sign in on a device that still opens your messages, or use your recovery sheet, and change your password.`,
      `If you did ask for this, there is nothing to do.`,
    ],
    action: { label: 'Stop this key recovery', url: input.cancelUrl },
  });
}

/** To the next of kin, whose card it is: they should know it was used, and when it opens. */
export function recoveryStartedNextOfKinMail(input: {
  owner: Owner;
  nextOfKin: Person;
  opensAt: Date;
  brand?: MailBrand | undefined;
}): OutgoingMail {
  const { owner, nextOfKin } = input;
  return renderFor(nextOfKin, {
    subject: `Your emergency card was used to recover ${owner.firstName}’s messages`,
    paragraphs: [
      `Your emergency card was used on ${fullName(owner)}’s Memento account to ask for their sealed messages to open again. They open there on ${formatDay(input.opensAt, owner.timeZone)}, unless ${owner.firstName} stops it before then.`,
      `If you did not do this, please get in touch with ${owner.firstName}, or with the people who care for them.`,
    ],
    brand: input.brand,
  });
}

/** To the next of kin when the owner stops it. */
export function recoveryCancelledMail(input: {
  owner: Person;
  nextOfKin: Person;
  brand?: MailBrand | undefined;
}): OutgoingMail {
  const { owner, nextOfKin } = input;
  return renderFor(nextOfKin, {
    subject: `${owner.firstName} has stopped the recovery of their messages`,
    paragraphs: [
      `${fullName(owner)} has stopped the key recovery started with your emergency card, so their sealed messages stay as they are.`,
      `If you are worried about ${owner.firstName}, please get in touch with them or with the people who care for them.`,
    ],
    brand: input.brand,
  });
}

import type { OutgoingMail } from '../mail/mail.repository';
import { fullName, render, type MailBrand, type Person } from '../mail/mail-layout';

const messages = (count: number) => (count === 1 ? 'message' : `${count} messages`);

/**
 * To a recipient of an 'after my legacy' message when the owner ends the release: what they
 * watched stays theirs, what they did not is closed again. Written to reassure, not to alarm.
 */
export function releaseEndedRecipientMail(input: {
  owner: Person;
  recipient: Person;
  watched: number;
  closed: number;
  appUrl: string;
  brand?: MailBrand | undefined;
}): OutgoingMail {
  const { owner, recipient, watched, closed } = input;
  const paragraphs = [
    `${fullName(owner)} has ended the release of their legacy on Memento, from their own account.`,
  ];
  if (watched > 0) {
    paragraphs.push(
      `The ${messages(watched)} you have already watched ${watched === 1 ? 'stays' : 'stay'} with you. You can watch ${watched === 1 ? 'it' : 'them'} again whenever you like.`,
    );
  }
  if (closed > 0) {
    paragraphs.push(
      `${watched > 0 ? 'The other' : 'The'} ${messages(closed)} ${owner.firstName} left for you ${closed === 1 ? 'is' : 'are'} closed again for now. ${closed === 1 ? 'It opens' : 'They open'} when ${owner.firstName}'s legacy is released.`,
    );
  }
  paragraphs.push('There is nothing you need to do.');
  return render({
    to: recipient.email,
    subject: `${owner.firstName} has ended the release of their legacy`,
    greeting: `Dear ${recipient.firstName},`,
    paragraphs,
    action: { label: 'Open Memento', url: input.appUrl },
    brand: input.brand,
  });
}

/** To the next of kin who asked, when the owner ends the release they started. */
export function releaseEndedNextOfKinMail(input: {
  owner: Person;
  nextOfKin: Person;
  askAgainOn: string;
  brand?: MailBrand | undefined;
}): OutgoingMail {
  const { owner, nextOfKin } = input;
  return render({
    to: nextOfKin.email,
    subject: `${owner.firstName} has ended the release you asked for`,
    greeting: `Dear ${nextOfKin.firstName},`,
    paragraphs: [
      `${fullName(owner)} has ended the release of their legacy on Memento, from their own account. The messages they left for after it are closed again.`,
      `You can ask again from ${input.askAgainOn}, if there is a need.`,
      `If you are worried about ${owner.firstName}, please get in touch with them or with the people who care for them.`,
    ],
    brand: input.brand,
  });
}

/** To the owner: removing the next of kin who asked also cancelled their request. */
export function requestCancelledWithRemovalMail(input: {
  owner: Person;
  /** Null when their account went by another path and nobody knows who they were any more. */
  nextOfKin: Pick<Person, 'firstName' | 'lastName'> | null;
}): OutgoingMail {
  const { owner, nextOfKin } = input;
  return render({
    to: owner.email,
    subject: 'The request to release your Memento legacy is cancelled',
    greeting: `Dear ${owner.firstName},`,
    paragraphs: [
      nextOfKin
        ? `You removed ${fullName(nextOfKin)} as your next of kin on Memento. ${nextOfKin.firstName} had asked to release your legacy, so that request is cancelled too. Your messages stay as they are.`
        : 'The next of kin who asked to release your legacy on Memento no longer has an account, so that request is cancelled. Your messages stay as they are.',
      'If you did not do this, please sign in to Memento and look at your account activity.',
    ],
  });
}

import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, fullName, renderFor, type MailBrand, type Person } from '../mail/mail-layout';
import { ignoreIfUnknown } from './recipients.mails';

/**
 * A sealed card's invitation: the owner made the card on their own device and gives it to the
 * person themselves, so no code is in it (Memento does not know the code).
 */
export function cardInvitationMail(input: {
  person: Person & { category: string };
  owner: Person;
  appUrl: string;
  isReplacement: boolean;
  /** The owner's care home's branding, for a resident's family. */
  brand?: MailBrand | undefined;
}): OutgoingMail {
  const { person, isReplacement, brand } = input;
  const owner = fullName(input.owner);
  const first = input.owner.firstName;
  if (person.category === 'next_of_kin') {
    return renderFor(person, {
      subject: isReplacement
        ? `Your new emergency card for ${owner}'s ${PRODUCT} account`
        : `${owner} has chosen you as their next of kin on ${PRODUCT}`,
      paragraphs: [
        isReplacement
          ? `${first} has made you a new emergency card for their ${PRODUCT} account. Your previous code no longer works.`
          : `${owner} records video messages for the people they love with ${PRODUCT}, and has chosen you as their next of kin.`,
        `${first} will give you your ${PRODUCT} emergency card. The emergency code is on the card, not in this email: only ${first} and you know it. Please keep the card somewhere safe and private, for example with important papers. You do not need to do anything now.`,
        `If ${first} can no longer get into their account, or when the time comes, you can use the code on the card: open ${input.appUrl}/auth, choose "Emergency access", and enter your email address (${person.email}), the code and a new password.`,
        `Every use of the code is recorded, and ${first} is told by email straight away.`,
        ignoreIfUnknown(owner),
      ],
      brand,
    });
  }
  return renderFor(person, {
    subject: isReplacement
      ? `Your new card for ${owner}'s messages on ${PRODUCT}`
      : `${owner} is recording video messages for you on ${PRODUCT}`,
    paragraphs: [
      isReplacement
        ? `${first} has made you a new ${PRODUCT} card. Your previous code no longer works.`
        : `${owner} records video messages for the people they love with ${PRODUCT}, and has added you.`,
      `${first} will give you your ${PRODUCT} card. Your access code is on the card, not in this email: only ${first} and you know it.`,
      `To sign in, open ${input.appUrl}/auth, choose "Recipient email and access code", and enter your email address (${person.email}) and the code on your card. Please keep the card private.`,
      ignoreIfUnknown(owner),
    ],
    brand,
  });
}

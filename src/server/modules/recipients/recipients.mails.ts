import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, fullName, renderFor, type MailBrand, type Person } from '../mail/mail-layout';

/** A code sent to someone an owner added: the first, or one that replaces it. */
interface CodeMailInput {
  owner: Person;
  code: string;
  appUrl: string;
  isReplacement: boolean;
  /** The owner's care home's branding, for a resident's family. */
  brand?: MailBrand | undefined;
}

/** The last line of every code mail to someone the owner added. */
export const ignoreIfUnknown = (owner: string) =>
  `If you do not know ${owner}, or think this email reached you by mistake, you can ignore it.`;

export function nextOfKinCodeMail(input: CodeMailInput & { nextOfKin: Person }): OutgoingMail {
  const owner = fullName(input.owner);
  return renderFor(input.nextOfKin, {
    subject: input.isReplacement
      ? `Your new emergency code for ${owner}'s ${PRODUCT} account`
      : `${owner} has chosen you as their next of kin on ${PRODUCT}`,
    paragraphs: [
      input.isReplacement
        ? `Here is your new emergency code for ${owner}'s ${PRODUCT} account. Your previous code no longer works.`
        : `${owner} records video messages for the people they love with ${PRODUCT}, and has chosen you as their next of kin. This is your emergency code:`,
      `Please keep it somewhere safe and private, for example with important papers. You do not need to do anything now.`,
      `If ${input.owner.firstName} can no longer get into their account, or when the time comes, you can use this code to set a new password for it: open ${input.appUrl}/auth, choose "Emergency access", and enter your email address (${input.nextOfKin.email}), this code and a new password.`,
      `Every use of the code is recorded, and ${input.owner.firstName} is told by email straight away. The code works once; after it is used, we send you a new one.`,
      ignoreIfUnknown(owner),
    ],
    code: input.code,
    brand: input.brand,
  });
}

/** A family member's or friend's access code: how they sign in to see what is shared. */
export function recipientAccessCodeMail(
  input: CodeMailInput & { recipient: Person },
): OutgoingMail {
  const owner = fullName(input.owner);
  return renderFor(input.recipient, {
    subject: input.isReplacement
      ? `Your new access code for ${owner}'s messages on ${PRODUCT}`
      : `${owner} is recording video messages for you on ${PRODUCT}`,
    paragraphs: [
      input.isReplacement
        ? `Here is your new access code for ${owner}'s messages. Your previous code no longer works.`
        : `${owner} records video messages for the people they love with ${PRODUCT}, and has added you. This is your access code:`,
      `To sign in, open ${input.appUrl}/auth, choose "Recipient email and access code", and enter your email address (${input.recipient.email}) and this code.`,
      `Messages kept only on ${input.owner.firstName}'s own device reach you when ${input.owner.firstName} or their next of kin passes them on. Please keep this code private.`,
      ignoreIfUnknown(owner),
    ],
    code: input.code,
    brand: input.brand,
  });
}

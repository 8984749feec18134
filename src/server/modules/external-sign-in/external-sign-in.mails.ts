import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, render, type Person } from '../mail/mail-layout';

/** Proves the account's email when a sign-in provider is linked to it without the password. */
export function providerLinkCodeMail(input: {
  owner: Person;
  code: string;
  providerName: string;
  deviceName: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} code to sign in with ${input.providerName}`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `You asked to sign in to your ${PRODUCT} account with ${input.providerName} on ${input.deviceName}. Your code is:`,
      `Enter it there to link ${input.providerName} to your account, so you can sign in with it from now on. The code works once and stops working in 30 minutes.`,
      `If you did not ask for this, you can ignore this email: without the code nothing changes. Please never tell the code to anyone, even someone who says they are from ${PRODUCT}.`,
    ],
    code: input.code,
  });
}

import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, fullName, render, type Person } from '../mail/mail-layout';

export function breakGlassOwnerMail(input: {
  owner: Person;
  nextOfKin: Person;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} password was reset by your next of kin`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `${fullName(input.nextOfKin)}, your next of kin, has just used their emergency code to set a new password for your ${PRODUCT} account. You have been signed out everywhere.`,
      `If you expected this, there is nothing more to do. If you did not, please speak to ${input.nextOfKin.firstName} or to whoever helps you with ${PRODUCT}, and choose a new password on your own device.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, render, type Person } from '../mail/mail-layout';

export function passwordResetCodeMail(input: {
  owner: Person;
  code: string;
  appUrl: string;
}): OutgoingMail {
  const fragment = new URLSearchParams({ email: input.owner.email, code: input.code }).toString();
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} password reset code`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `Someone, hopefully you, asked to reset the password for your ${PRODUCT} account. Your reset code is:`,
      `Enter it on the "Reset your password" page with a new password, or use the button below, which fills it in for you. The code works once and stops working in 30 minutes.`,
      `If you did not ask for this, you can ignore this email: your password has not changed.`,
    ],
    code: input.code,
    action: {
      label: 'Reset my password',
      url: `${input.appUrl}/auth?view=reset_password#${fragment}`,
    },
  });
}

export function passwordChangedMail(input: {
  owner: Person;
  how: string;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} password was changed`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `The password for your ${PRODUCT} account was just changed ${input.how}.`,
      `If this was you, there is nothing more to do. If it was not, please reset your password now and tell your next of kin.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

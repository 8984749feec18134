import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, openAppAction, render, renderFor, type Person } from '../mail/mail-layout';

export function adminPasswordResetMail(input: { owner: Person; appUrl: string }): OutgoingMail {
  return renderFor(input.owner, {
    subject: `An administrator reset your ${PRODUCT} password`,
    paragraphs: [
      `An administrator of your ${PRODUCT} installation has reset your password. They will give you a temporary password.`,
      `Sign in with it on your own device, and ${PRODUCT} will ask you to choose a new password straight away.`,
      `If you did not ask for this, please speak to the person who looks after ${PRODUCT} where you live, or to your next of kin.`,
    ],
    action: openAppAction(input.appUrl),
  });
}

export function deviceAssociationRemovedMail(input: {
  owner: Person;
  deviceName: string;
  appUrl: string;
}): OutgoingMail {
  return renderFor(input.owner, {
    subject: `Your ${PRODUCT} device was unlinked by an administrator`,
    paragraphs: [
      `An administrator removed the link between your ${PRODUCT} account and a device (${input.deviceName}). That device has been signed out.`,
      `Videos stored on that device stay there. To use your account again, sign in on your device; if it asks, follow the steps to use that device.`,
    ],
    action: openAppAction(input.appUrl),
  });
}

export function emailVerificationMail(input: { to: string; url: string }): OutgoingMail {
  return render({
    to: input.to,
    subject: `Please confirm your email address for ${PRODUCT}`,
    greeting: 'Hello,',
    paragraphs: [
      `An administrator of a ${PRODUCT} installation asked to check that this email address receives mail.`,
      `If you expected this, please press the button below. The link works for 24 hours. If you did not expect it, you can ignore this message.`,
    ],
    action: { label: 'Confirm my email address', url: input.url },
  });
}

export function testMail(input: { to: string; code: string }): OutgoingMail {
  return render({
    to: input.to,
    subject: `${PRODUCT} test message`,
    greeting: 'Hello,',
    paragraphs: [
      `This is a test message from ${PRODUCT}. Its verification code is:`,
      `If the code matches the one shown in the admin dashboard, mail from this installation arrives safely.`,
    ],
    code: input.code,
  });
}

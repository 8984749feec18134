import type { OutgoingMail } from './mail.repository';

const PRODUCT = 'Memento';

interface MailParts {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** A code shown large, on its own line. */
  code?: string;
  action?: { label: string; url: string };
  closing?: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Plain text and simple HTML with the same words. */
export function render(parts: MailParts): OutgoingMail {
  const closing = parts.closing ?? `With care,\nThe ${PRODUCT} team`;
  const text = [
    parts.greeting,
    ...parts.paragraphs.flatMap((paragraph, index) =>
      index === 0 && parts.code ? [paragraph, `    ${parts.code}`] : [paragraph],
    ),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`] : []),
    closing,
  ].join('\n\n');

  const paragraphHtml = parts.paragraphs
    .map((paragraph, index) => {
      const p = `<p style="margin:0 0 16px">${escapeHtml(paragraph)}</p>`;
      const code = parts.code
        ? `<p style="margin:0 0 16px;font-size:26px;font-weight:700;letter-spacing:2px;font-family:monospace">${escapeHtml(parts.code)}</p>`
        : '';
      return index === 0 ? p + code : p;
    })
    .join('');
  const action = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="background:#0f5e63;color:#fff;padding:14px 22px;border-radius:10px;text-decoration:none;font-weight:600">${escapeHtml(parts.action.label)}</a></p>`
    : '';
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#faf7f2;font-family:system-ui,sans-serif;font-size:18px;line-height:1.6;color:#1f2933"><div style="max-width:560px;margin:0 auto;background:#fff;border-radius:16px;padding:32px"><p style="margin:0 0 24px;font-weight:700;color:#0f5e63">${PRODUCT}</p><p style="margin:0 0 16px">${escapeHtml(parts.greeting)}</p>${paragraphHtml}${action}<p style="margin:24px 0 0;white-space:pre-line">${escapeHtml(closing)}</p></div></body></html>`;

  return { to: parts.to, subject: parts.subject, text, html };
}

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
}

export const fullName = (person: Pick<Person, 'firstName' | 'lastName'>) =>
  `${person.firstName} ${person.lastName}`;

export function nextOfKinCodeMail(input: {
  nextOfKin: Person;
  owner: Person;
  code: string;
  appUrl: string;
  isReplacement: boolean;
}): OutgoingMail {
  const owner = fullName(input.owner);
  return render({
    to: input.nextOfKin.email,
    subject: input.isReplacement
      ? `Your new emergency code for ${owner}'s ${PRODUCT} account`
      : `${owner} has chosen you as their next of kin on ${PRODUCT}`,
    greeting: `Dear ${input.nextOfKin.firstName},`,
    paragraphs: [
      input.isReplacement
        ? `Here is your new emergency code for ${owner}'s ${PRODUCT} account. Your previous code no longer works.`
        : `${owner} records video messages for the people they love with ${PRODUCT}, and has chosen you as their next of kin. This is your emergency code:`,
      `Please keep it somewhere safe and private, for example with important papers. You do not need to do anything now.`,
      `If ${input.owner.firstName} can no longer get into their account, or when the time comes, you can use this code to set a new password for it: open ${input.appUrl}/auth, choose "Emergency access", and enter your email address (${input.nextOfKin.email}), this code and a new password.`,
      `Every use of the code is recorded, and ${input.owner.firstName} is told by email straight away. The code works once; after it is used, we send you a new one.`,
      `If you do not know ${owner}, or think this email reached you by mistake, you can ignore it.`,
    ],
    code: input.code,
  });
}

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

export function deviceMoveCodeMail(input: {
  owner: Person;
  code: string;
  deviceName: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} code to use a new device`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `You asked to use your ${PRODUCT} account on a new device (${input.deviceName}). Your code is:`,
      `Enter it on that device to move your account there. The code works once and stops working in 30 minutes. Videos stored on your old device stay there.`,
      `If you did not ask for this, someone knows your password: please change it as soon as you can.`,
    ],
    code: input.code,
  });
}

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

export function deviceMovedMail(input: {
  owner: Person;
  deviceName: string;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} account moved to a new device`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `Your ${PRODUCT} account is now on a new device (${input.deviceName}). Your old device has been signed out and can no longer open the account.`,
      `If this was not you, please speak to your next of kin or whoever helps you with ${PRODUCT} straight away.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

/** A family member's or friend's access code: how they sign in to see what is shared. */
export function recipientAccessCodeMail(input: {
  recipient: Person;
  owner: Person;
  code: string;
  appUrl: string;
  isReplacement: boolean;
}): OutgoingMail {
  const owner = fullName(input.owner);
  return render({
    to: input.recipient.email,
    subject: input.isReplacement
      ? `Your new access code for ${owner}'s messages on ${PRODUCT}`
      : `${owner} is recording video messages for you on ${PRODUCT}`,
    greeting: `Dear ${input.recipient.firstName},`,
    paragraphs: [
      input.isReplacement
        ? `Here is your new access code for ${owner}'s messages. Your previous code no longer works.`
        : `${owner} records video messages for the people they love with ${PRODUCT}, and has added you. This is your access code:`,
      `To sign in, open ${input.appUrl}/auth, choose "Recipient email and access code", and enter your email address (${input.recipient.email}) and this code.`,
      `Messages kept only on ${input.owner.firstName}'s own device reach you when ${input.owner.firstName} or their next of kin passes them on. Please keep this code private.`,
      `If you do not know ${owner}, or think this email reached you by mistake, you can ignore it.`,
    ],
    code: input.code,
  });
}

export function adminPasswordResetMail(input: { owner: Person; appUrl: string }): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `An administrator reset your ${PRODUCT} password`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `An administrator of your ${PRODUCT} installation has reset your password. They will give you a temporary password.`,
      `Sign in with it on your own device, and ${PRODUCT} will ask you to choose a new password straight away.`,
      `If you did not ask for this, please speak to the person who looks after ${PRODUCT} where you live, or to your next of kin.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

export function deviceAssociationRemovedMail(input: {
  owner: Person;
  deviceName: string;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} device was unlinked by an administrator`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `An administrator removed the link between your ${PRODUCT} account and a device (${input.deviceName}). That device has been signed out.`,
      `Videos stored on that device stay there. To use your account again, sign in on your device; if it asks, follow the steps to use that device.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
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

export function cloudKeptMail(input: {
  owner: Person;
  until: Date;
  count: number;
  appUrl: string;
}): OutgoingMail {
  const until = input.until.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const messages = input.count === 1 ? '1 message' : `${input.count} messages`;
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} messages stay in the cloud until ${until}`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `Your ${PRODUCT} plan no longer includes cloud sync. The cloud copies of your ${messages} are kept until ${until}.`,
      `Before then, open ${PRODUCT} on your main device and choose "Keep all messages on this device", so every message is saved there. Your recipients can watch them in the cloud until that date.`,
      `Nothing on your device is deleted. If you choose a paid plan again before ${until}, your cloud copies stay.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

export function deviceAddCodeMail(input: {
  owner: Person;
  code: string;
  deviceName: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} code to add a device`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `You asked to use your ${PRODUCT} account on another device (${input.deviceName}) as well. Your code is:`,
      `Enter it on that device to add it. The code works once and stops working in 30 minutes. Your other devices stay as they are.`,
      `If you did not ask for this, someone knows your password: please change it as soon as you can.`,
    ],
    code: input.code,
  });
}

export function deviceAddedMail(input: {
  owner: Person;
  deviceName: string;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `A device was added to your ${PRODUCT} account`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `${input.deviceName} can now open your ${PRODUCT} account and watch your messages in the cloud. Recording stays on your primary device.`,
      `If this was not you, sign in on your primary device, change your password, and ask the person who looks after ${PRODUCT} to remove the device.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

export function primaryDeviceChangedMail(input: {
  owner: Person;
  deviceName: string;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} primary device has changed`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `${input.deviceName} is now your primary device: you record there from now on, and your messages sync from it.`,
      `If this was not you, change your password straight away and speak to the person who looks after ${PRODUCT}.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

const dayOf = (date: Date) =>
  date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Billing: a paid plan has started, or its free trial has. */
export function subscriptionStartedMail(input: {
  owner: Person;
  planName: string;
  priceLabel: string;
  renewsOn: Date | null;
  trialEndsAt: Date | null;
  appUrl: string;
}): OutgoingMail {
  const { planName, trialEndsAt, renewsOn } = input;
  const terms = trialEndsAt
    ? `Your free trial runs until ${dayOf(trialEndsAt)}. After that the plan is ${input.priceLabel} unless you cancel before then in 'Manage billing'.`
    : `The plan is ${input.priceLabel}${renewsOn ? ` and renews on ${dayOf(renewsOn)}` : ''}. You can change or cancel it at any time in 'Manage billing'.`;
  return render({
    to: input.owner.email,
    subject: trialEndsAt
      ? `Your ${PRODUCT} ${planName} free trial has started`
      : `You are on ${PRODUCT} ${planName} now`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `Thank you. Your ${planName} plan is ready to use: your recordings are copied to the cloud and your recipients can watch them on their own phone or computer.`,
      terms,
    ],
    action: { label: 'See your plan', url: `${input.appUrl}/premium` },
  });
}

/** Billing: a second plan was paid for by mistake; it was cancelled at once and refunded. */
export function secondPlanRefundedMail(input: {
  owner: Person;
  extraPlanName: string;
  keptPlanName: string;
  refundLabel: string | null;
  appUrl: string;
}): OutgoingMail {
  const money = input.refundLabel
    ? `We have refunded the ${input.refundLabel} it cost in full. The money goes back to the card you paid with, usually within 5 to 10 days.`
    : 'Nothing had been charged for it, so there is nothing to refund.';
  return render({
    to: input.owner.email,
    subject: `We cancelled a second ${PRODUCT} plan and refunded it`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `A second plan, ${input.extraPlanName}, was started on your account, perhaps from another window. An account only needs one plan, so we cancelled the second one straight away.`,
      money,
      `Your ${input.keptPlanName} plan carries on as before. You do not need to do anything. To change plan, use 'Manage billing'.`,
    ],
    action: { label: 'See your plan', url: `${input.appUrl}/premium` },
  });
}

/** Billing: a payment did not go through; the plan stays until the grace period ends. */
export function paymentFailedMail(input: {
  owner: Person;
  planName: string;
  graceEndsAt: Date;
  appUrl: string;
}): OutgoingMail {
  const until = dayOf(input.graceEndsAt);
  return render({
    to: input.owner.email,
    subject: `We could not take your ${PRODUCT} payment`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `We tried to take the payment for your ${input.planName} plan, but it did not go through. Nothing has changed yet: your plan stays until ${until}.`,
      `Please update your card in 'Manage billing' before then. If the payment has not gone through by ${until}, your account moves to the free Community Edition. Nothing is deleted that day: your cloud copies are kept for 30 more days.`,
    ],
    action: { label: 'Update your card', url: `${input.appUrl}/premium` },
  });
}

/** Billing: the plan was cancelled and ends at the end of the paid period. */
export function planEndingMail(input: {
  owner: Person;
  planName: string;
  endsOn: Date;
  appUrl: string;
}): OutgoingMail {
  const endsOn = dayOf(input.endsOn);
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} ${input.planName} plan ends on ${endsOn}`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `Your ${input.planName} plan has been cancelled. You keep everything it gives you until ${endsOn}, and you will not be charged again.`,
      `On ${endsOn} your account moves to the free Community Edition. Every recipient stays, but no new one can be added over the free limit, and new messages stay on your device. Your cloud copies are kept for 30 more days, so there is time to keep them all on your device.`,
      `Changed your mind? Choose 'Manage billing' before ${endsOn} to keep your plan.`,
    ],
    action: { label: 'See your plan', url: `${input.appUrl}/premium` },
  });
}

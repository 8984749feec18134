import { dayOf } from '../../lib/date-words';
import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, render, type Person } from '../mail/mail-layout';

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

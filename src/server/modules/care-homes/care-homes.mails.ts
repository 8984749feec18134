import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, renderFor, type MailBrand, type Person } from '../mail/mail-layout';
import { STAFF_INVITE_DAYS } from '../../../shared/schemas/care-homes';

/** A staff invitation: the link carries the token in its fragment, which no server log sees. */
export function staffInvitationMail(input: {
  staff: Person;
  homeName: string;
  managerName: string;
  link: string;
}): OutgoingMail {
  return renderFor(input.staff, {
    subject: `${input.homeName} invites you to help residents with ${PRODUCT}`,
    paragraphs: [
      `${input.managerName} has invited you to join ${input.homeName}'s staff on ${PRODUCT}, to help residents record video messages for their families.`,
      `Open the link below and sign in with your own ${PRODUCT} account (or create one). The invitation works once and stops working in ${STAFF_INVITE_DAYS} days.`,
      `Staff never see residents' messages: only the resident chooses who watches them.`,
      `If you were not expecting this, you can ignore this email.`,
    ],
    action: { label: 'Accept the invitation', url: input.link },
    closing: `Powered by ${PRODUCT}`,
  });
}

/**
 * To each next of kin when the home records a resident's death: only that they may ask for the
 * legacy release, as the owner arranged. The home releases nothing.
 */
export function residentDiedMail(input: {
  nextOfKin: Person;
  resident: Person;
  homeName: string;
  appUrl: string;
  /** The home that tells of the death: its own notice carries its branding. */
  brand: MailBrand;
}): OutgoingMail {
  const { resident } = input;
  return renderFor(input.nextOfKin, {
    subject: `${input.homeName} has told us of ${resident.firstName} ${resident.lastName}’s death`,
    paragraphs: [
      `${input.homeName} has let us know that ${resident.firstName} ${resident.lastName} has died. We are very sorry for your loss.`,
      `Nothing has changed on ${PRODUCT}: the messages ${resident.firstName} recorded stay theirs, and the home cannot open or release them. Messages meant for after ${resident.firstName}'s death open only when you, as their next of kin, ask for their legacy to be released.`,
      `When you are ready, sign in to ${PRODUCT} with your email address and access code and choose 'Ask to release ${resident.firstName}'s legacy'. There is no hurry.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
    brand: input.brand,
  });
}

/** To each next of kin when a resident leaves the home: their messages and access stay. */
export function residentLeftMail(input: {
  nextOfKin: Person;
  resident: Person;
  homeName: string;
}): OutgoingMail {
  const { resident } = input;
  return renderFor(input.nextOfKin, {
    subject: `${resident.firstName} ${resident.lastName} has left ${input.homeName}`,
    paragraphs: [
      `${input.homeName} has let us know that ${resident.firstName} ${resident.lastName} has left the home.`,
      `Nothing changes for you: the messages ${resident.firstName} recorded stay theirs and yours to watch, and you sign in as before. ${input.homeName} no longer sees how ${resident.firstName} is getting on.`,
    ],
    closing: `Powered by ${PRODUCT}`,
  });
}

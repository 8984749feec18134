import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, renderFor, type Person } from '../mail/mail-layout';
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

import { dayOf } from '../../lib/date-words';
import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, render, type Person } from '../mail/mail-layout';

export function cloudKeptMail(input: {
  owner: Person;
  until: Date;
  count: number;
  appUrl: string;
}): OutgoingMail {
  const until = dayOf(input.until);
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

import type { SharedTestApp } from '../../setup/app';
import type { ReceivedMail } from '../../setup/smtp';

/** The queued mail sent now, then the one to this address whose subject is or matches `subject`. */
export async function deliverMailTo(
  testApp: SharedTestApp,
  address: string,
  subject: string | RegExp,
): Promise<ReceivedMail> {
  await testApp.app.jobs.deliverMail();
  return testApp.smtp.waitFor(
    (mail) =>
      mail.to.includes(address) &&
      (typeof subject === 'string' ? mail.subject === subject : subject.test(mail.subject)),
  );
}

import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, oneTimeCodes, users } from '../../src/server/db/schema';
import {
  createOnboardedUser,
  createPrimaryUser,
  GOOD_PASSWORD,
  TestClock,
  TestDevice,
  useTestApp,
} from '../setup/app';
import { extractCode } from '../setup/smtp';
import { signInWithCode } from './support/recipients';
import { signInWithPassword } from './support/auth';

// A stranger's wrong tries never keep the rightful person out: no account-wide delay for 80-bit
// codes, a way past it for passwords and reset codes that only the reader of the account's mail
// has, and the device-add code counted like every emailed code.

// Waits are moved past on the app's clock rather than slept through.
const clock = new TestClock();
const t = useTestApp({ mail: true, admin: true, clock });

const WRONG_CODE = 'AAAA-BBBB-CCCC-DDDD';
const NEW_PASSWORD = 'Bluebells-in-May-2027';
const WAIT_FOR_OTHERS =
  /^Several wrong attempts were made for this account just now, so for safety please wait \d+ seconds? and try again\. /;

/** The newest mail to this address with this subject fragment, sent after `mark`. */
async function mailAfter(mark: number, to: string, subject: string) {
  return t.smtp.waitFor(
    (m) => t.smtp.messages.indexOf(m) >= mark && m.to.includes(to) && m.subject.includes(subject),
  );
}

describe('80-bit codes: counted per device and address, never across the whole account', () => {
  it('lets the real next of kin in on a new phone after a stranger’s wrong emergency codes', async () => {
    const owner = await createOnboardedUser(t);
    const resetWith = (device: TestDevice, code: string) =>
      device.post('/api/break-glass-reset', {
        nextOfKinEmail: owner.nextOfKin.email,
        emergencyCode: code,
        newPassword: NEW_PASSWORD,
      });
    // Six from one device (the sixth is past that device's limit); a second device is not slowed.
    const stranger = await TestDevice.create(t.app);
    for (let i = 0; i < 5; i += 1) {
      expect((await resetWith(stranger, WRONG_CODE)).statusCode).toBe(400);
    }
    const sixth = await resetWith(stranger, WRONG_CODE);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('RATE_LIMITED');
    const another = await TestDevice.create(t.app);
    expect((await resetWith(another, WRONG_CODE)).statusCode).toBe(400);

    const phone = await TestDevice.create(t.app);
    const rightful = await resetWith(phone, owner.nextOfKin.emergencyAccessCode);
    expect(rightful.statusCode).toBe(200);
    expect(rightful.json().message).toMatch(/^The password has been reset\./);
    const signIn = await signInWithPassword(owner.device, owner.user.username, NEW_PASSWORD);
    expect(signIn.statusCode).toBe(200);
  });

  it('lets a recipient in on a new phone after a stranger’s wrong access codes', async () => {
    const owner = await createOnboardedUser(t);
    const signInWith = (device: TestDevice, code: string) =>
      signInWithCode(device, { ...owner.nextOfKin, emergencyAccessCode: code });
    const stranger = await TestDevice.create(t.app);
    for (let i = 0; i < 10; i += 1) {
      expect((await signInWith(stranger, WRONG_CODE)).statusCode).toBe(401);
    }
    expect((await signInWith(stranger, WRONG_CODE)).statusCode).toBe(429);
    const another = await TestDevice.create(t.app);
    expect((await signInWith(another, WRONG_CODE)).statusCode).toBe(401);

    const phone = await TestDevice.create(t.app);
    const rightful = await signInWith(phone, owner.nextOfKin.emergencyAccessCode);
    expect(rightful.statusCode).toBe(200);
    expect(rightful.json().id).toBe(owner.nextOfKin.id);
    const failures = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'login_failed')));
    expect(failures).toHaveLength(12);
  });
});

describe('passwords and reset codes: a way past the account-wide delay', () => {
  /** Eleven strangers' devices, one wrong password each: past the account's free failures. */
  async function guessFromElevenStrangers(username: string) {
    for (let source = 0; source < 11; source += 1) {
      const stranger = await TestDevice.create(t.app);
      const res = await signInWithPassword(stranger, username, `Guess-${source}-Aa!`);
      expect([401, 429]).toContain(res.statusCode);
    }
  }

  it('lets the owner past a stranger’s wrong passwords with a reset code asked for on the new phone', async () => {
    const owner = await createOnboardedUser(t);
    const signIn = (device: TestDevice, password: string) =>
      signInWithPassword(device, owner.user.username, password);
    await guessFromElevenStrangers(owner.user.username);

    const phone = await TestDevice.create(t.app);
    const delayed = await signIn(phone, GOOD_PASSWORD);
    expect(delayed.statusCode).toBe(429);
    expect(delayed.json().code).toBe('ACCOUNT_DELAYED');
    expect(delayed.json().message).toMatch(WAIT_FOR_OTHERS);
    expect(delayed.json().message).toMatch(
      / If you keep being asked to wait, you can reset your password by email on this device: that does not wait\.$/,
    );

    // The way past: a reset code asked for on this phone works here without waiting.
    const mark = t.smtp.messages.length;
    expect(
      (await phone.post('/api/temporary-password-reset', { email: owner.user.email })).statusCode,
    ).toBe(200);
    const code = extractCode(await mailAfter(mark, owner.user.email, 'password reset code'), 8);
    const reset = await phone.post('/api/complete-temporary-reset', {
      email: owner.user.email,
      resetToken: code,
      newPassword: NEW_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);

    // The stranger keeps trying from new devices and is still slowed; the owner's phone is not,
    // and it moves the account there with the emailed code. The stranger's next wrong password
    // is counted once the delay has run out (on a slow machine the reset took longer than it), and
    // the try right after it waits again.
    let counted = await signIn(await TestDevice.create(t.app), 'Guess-again-Aa!');
    while (counted.statusCode === 429 && counted.json().code === 'ACCOUNT_DELAYED') {
      clock.advance(250);
      counted = await signIn(await TestDevice.create(t.app), 'Guess-again-Aa!');
    }
    expect(counted.statusCode).toBe(401);
    const strangerTry = await signIn(await TestDevice.create(t.app), NEW_PASSWORD);
    expect(strangerTry.statusCode).toBe(429);
    expect(strangerTry.json().code).toBe('ACCOUNT_DELAYED');
    const credentials = {
      username: owner.user.username,
      password: NEW_PASSWORD,
      deviceId: phone.deviceId,
    };
    const denied = await signIn(phone, NEW_PASSWORD);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('NOT_PRIMARY_DEVICE');
    const moveMark = t.smtp.messages.length;
    expect((await phone.post('/api/device/move/request', credentials)).statusCode).toBe(200);
    const moveCode = extractCode(await mailAfter(moveMark, owner.user.email, 'code'), 8);
    const moved = await phone.post('/api/device/move/complete', { ...credentials, code: moveCode });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().id).toBe(owner.user.id);
  });

  it('treats a family member’s phone as a stranger’s when it guesses the owner’s password', async () => {
    const owner = await createOnboardedUser(t);
    // The next of kin signs in as a recipient on their phone: a successful sign-in on the owner's
    // log, but their own, not the owner's.
    const familyPhone = await TestDevice.create(t.app);
    const recipientSignIn = await signInWithCode(familyPhone, owner.nextOfKin);
    expect(recipientSignIn.statusCode).toBe(200);

    await guessFromElevenStrangers(owner.user.username);
    // The account-wide delay holds for the family member's phone as for any stranger's.
    const fromFamily = await signInWithPassword(
      familyPhone,
      owner.user.username,
      'Guess-family-Aa!',
    );
    expect(fromFamily.statusCode).toBe(429);
    expect(fromFamily.json().code).toBe('ACCOUNT_DELAYED');
  });

  it('lets the owner change the password on the dashboard whatever strangers try', async () => {
    const owner = await createPrimaryUser(t);
    // A hundred sign-in tries from ten strangers' devices, most of them refused at once.
    for (let source = 0; source < 10; source += 1) {
      const stranger = await TestDevice.create(t.app);
      for (let i = 0; i < 10; i += 1) {
        await signInWithPassword(stranger, owner.user.username, `Guess-${source}-${i}-Aa!`);
      }
    }
    const changed = await owner.device.post('/api/reset-password', {
      currentPassword: GOOD_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().message).toBe('Password has been reset successfully.');
  });

  it('checks a reset code without the delay only on the device that asked for it', async () => {
    const { user } = await createPrimaryUser(t);
    const complete = (device: TestDevice, resetToken: string) =>
      device.post('/api/complete-temporary-reset', {
        email: user.email,
        resetToken,
        newPassword: NEW_PASSWORD,
      });
    const phone = await TestDevice.create(t.app);
    const mark = t.smtp.messages.length;
    await phone.post('/api/temporary-password-reset', { email: user.email });
    const code = extractCode(await mailAfter(mark, user.email, 'password reset code'), 8);

    // Six strangers' devices, one wrong code each: past the email's free failures.
    for (let source = 0; source < 6; source += 1) {
      const res = await complete(await TestDevice.create(t.app), 'AAAA-BBBB');
      expect([400, 429]).toContain(res.statusCode);
    }
    // Elsewhere the right code waits, and the answer says how to avoid it.
    const laptop = await TestDevice.create(t.app);
    await complete(await TestDevice.create(t.app), 'AAAA-CCCC');
    const elsewhere = await complete(laptop, code);
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json().code).toBe('ACCOUNT_DELAYED');
    expect(elsewhere.json().message).toMatch(WAIT_FOR_OTHERS);
    expect(elsewhere.json().message).toMatch(
      / If you keep being asked to wait, ask for a new code on this device: a code asked for here works here without waiting\.$/,
    );
    // On the phone that asked, it works at once.
    expect((await complete(phone, code)).statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).not.toBeNull();
  });

  it('gives a device at most 5 tries at a code it asked for itself', async () => {
    const { user } = await createPrimaryUser(t);
    const stranger = await TestDevice.create(t.app);
    const mark = t.smtp.messages.length;
    await stranger.post('/api/temporary-password-reset', { email: user.email });
    const code = extractCode(await mailAfter(mark, user.email, 'password reset code'), 8);
    for (let i = 0; i < 5; i += 1) {
      const res = await stranger.post('/api/complete-temporary-reset', {
        email: user.email,
        resetToken: 'AAAA-BBBB',
        newPassword: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(400);
    }
    // That code is now used up: its five tries were spent without the delay.
    const [stored] = await t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    expect(stored!.attempts).toBe(5);
    const owner = await TestDevice.create(t.app);
    await owner.post('/api/temporary-password-reset', { email: user.email });
    const late = await owner.post('/api/complete-temporary-reset', {
      email: user.email,
      resetToken: code,
      newPassword: NEW_PASSWORD,
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(
      'This reset code is not right or has expired. Please check it, or ask for a new one.',
    );
  });
});

import { randomBytes } from 'node:crypto';
import { EMERGENCY_CODE_LENGTH, normalizeCode } from '../../../shared/domain/codes';
import type { TCreateRecipientBody, TRecipientCreated } from '../../../shared/schemas/safety-net';
import type { AppDeps } from '../../app';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { generateCode } from '../../lib/codes';
import { hashSecret } from '../../lib/crypto';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import { nextOfKinCodeMail } from '../mail/mail.templates';
import { findRecipientsOf, insertUser, updateUser, type UserRow } from '../users/users.repository';

type TRecipientInput = Omit<TCreateRecipientBody, 'createdById'> & { email: string };

/** A fresh access code: returned once, stored only as an argon2id hash. */
export async function issueAccessCode(): Promise<{ code: string; hash: string }> {
  const code = generateCode(EMERGENCY_CODE_LENGTH);
  return { code, hash: await hashSecret(normalizeCode(code)) };
}

/** Replaces a next of kin's code and emails the new one (D6, D11). */
export async function rotateNextOfKinCode(
  deps: AppDeps,
  tx: DbOrTx,
  input: { nextOfKin: UserRow; owner: UserRow; isReplacement: boolean },
): Promise<string> {
  const { code, hash } = await issueAccessCode();
  await updateUser(tx, input.nextOfKin.id, { emergencyAccessCodeHash: hash });
  await deps.mail.enqueue(
    tx,
    nextOfKinCodeMail({
      nextOfKin: input.nextOfKin,
      owner: input.owner,
      code,
      appUrl: deps.config.APP_URL,
      isReplacement: input.isReplacement,
    }),
  );
  return code;
}

/**
 * Adds a recipient for the signed-in primary user; `createdById` always comes from the session
 * (D19). During onboarding a repeated next-of-kin form updates the one next of kin rather than
 * making a second, so a retried request never leaves two.
 */
export async function createRecipient(
  deps: AppDeps,
  context: RequestContext,
  input: { owner: UserRow; body: TRecipientInput },
): Promise<{ recipient: TRecipientCreated; isNew: boolean }> {
  const { owner, body } = input;
  const result = await deps.db.transaction(async (tx) => {
    const existing = await findRecipientsOf(tx, owner.id);
    const sameEmail = existing.find((recipient) => recipient.email.toLowerCase() === body.email);
    const onboardingNextOfKin =
      body.category === 'next_of_kin' && !owner.onboardingCompletedAt
        ? existing.find((recipient) => recipient.category === 'next_of_kin')
        : undefined;
    const target = onboardingNextOfKin ?? (body.category === 'next_of_kin' ? sameEmail : undefined);

    if (!target && sameEmail) {
      throw new AppError('VALIDATION', 'You have already added someone with this email address.', {
        email: 'You have already added someone with this email address.',
      });
    }

    const values = {
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      category: body.category,
      phoneNumber: body.phoneNumber ?? null,
      relationship: body.relationship ?? null,
    };

    let recipient: UserRow;
    if (target) {
      await updateUser(tx, target.id, values);
      recipient = { ...target, ...values };
    } else {
      recipient = await insertUser(tx, {
        ...values,
        // D22: an internal username nobody types; recipients have no password.
        username: `recipient-${randomBytes(9).toString('base64url').toLowerCase()}`,
        createdById: owner.id,
        isPrimary: false,
        firstLogin: false,
        tosAccepted: false,
      });
    }

    let code: string;
    if (recipient.category === 'next_of_kin') {
      code = await rotateNextOfKinCode(deps, tx, {
        nextOfKin: recipient,
        owner,
        isReplacement: false,
      });
    } else {
      const issued = await issueAccessCode();
      await updateUser(tx, recipient.id, { emergencyAccessCodeHash: issued.hash });
      code = issued.code;
    }

    await recordAudit(tx, context, {
      eventType: target ? 'recipient_updated' : 'recipient_added',
      userId: owner.id,
      username: owner.username,
      details: {
        message: target
          ? `Updated ${recipient.category === 'next_of_kin' ? 'next of kin' : 'recipient'} ${recipient.firstName} ${recipient.lastName} and issued a new code`
          : `Added ${recipient.category === 'next_of_kin' ? 'next of kin' : 'recipient'} ${recipient.firstName} ${recipient.lastName}`,
        recipientId: recipient.id,
      },
    });

    return {
      recipient: {
        id: recipient.id,
        category: recipient.category as TRecipientCreated['category'],
        firstName: recipient.firstName,
        lastName: recipient.lastName,
        email: recipient.email,
        emergencyAccessCode: code,
      },
      isNew: !target,
    };
  });
  deps.mail.kick();
  return result;
}

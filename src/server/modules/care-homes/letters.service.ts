import {
  CARE_HOME_MESSAGES,
  LETTER_CODE_DAYS,
  type TInvitationLetter,
  type TLetters,
} from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { Actor } from '../access/actor';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { maskEmail } from '../devices/device-move.service';
import { formatDay } from '../legacy/legacy.mails';
import { fullName } from '../mail/mail-layout';
import { issueAccessCode } from '../recipients/recipients.service';
import { updateUser } from '../users/users.repository';
import { findLetterTargets } from './care-homes.repository';
import { requireOwnHome, toCareHome } from './care-homes.service';

type Deps = Pick<AppDeps, 'clock' | 'db'>;

const DAY_MS = 24 * 3600_000;

/**
 * POST /api/care-home/letters: one invitation letter per family that has not joined, each with a
 * new code made now, kept only as its hash, that works for a month unless used (a letter lost in
 * a drawer stops being a key). The code is in this answer once, for printing, and never emailed:
 * the letter is how it reaches the family. A family that joined keeps its code: no letter. Each
 * letter goes on the resident's own log, naming who printed it.
 */
export async function issueLetters(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; residentIds?: number[] | undefined },
): Promise<TLetters> {
  const home = await requireOwnHome(deps, input.actor);
  const rows = await findLetterTargets(deps.db, home.id, input.residentIds);
  // A sealed card's code is made in the resident's own browser: the home cannot make it.
  const targets = rows.filter((row) => !row.hasJoined && row.nextOfKin.accessCodeForm === 'code');
  if (targets.length === 0) throw new AppError('CONFLICT', CARE_HOME_MESSAGES.noLetters);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + LETTER_CODE_DAYS * DAY_MS);
  const codes: { target: (typeof targets)[number]; code: string; hash: string }[] = [];
  // Hashed before the transaction: hashing is the slow part, and holds no lock.
  for (const target of targets) codes.push({ target, ...(await issueAccessCode()) });
  const printedBy = `${fullName(input.actor.user)}, manager of ${home.name}`;
  const letters = await deps.db.transaction(async (tx) => {
    const made: TInvitationLetter[] = [];
    for (const { target, code, hash } of codes) {
      const { resident, nextOfKin } = target;
      await updateUser(
        tx,
        nextOfKin.id,
        { emergencyAccessCodeHash: hash, accessCodeForm: 'code', accessCodeExpiresAt: expiresAt },
        now,
      );
      await recordAccountEvent(tx, context, resident, {
        eventType: 'care_home_letter_printed',
        details: {
          message: `${printedBy}, printed an invitation letter for ${fullName(nextOfKin)}; its code works until ${formatDay(expiresAt, null)} unless used`,
          actor: printedBy,
        },
      });
      made.push({
        residentId: target.linkId,
        residentName: fullName(resident),
        room: target.room,
        nextOfKinName: fullName(nextOfKin),
        maskedEmail: maskEmail(nextOfKin.email),
        code,
        expiresAt: expiresAt.toISOString(),
      });
    }
    await recordAccountEvent(tx, context, input.actor.user, {
      eventType: 'care_home_letter_printed',
      details: {
        message: `Printed ${made.length} invitation letter(s) for families of ${home.name}`,
      },
    });
    return made;
  });
  return { home: toCareHome(home), letters };
}

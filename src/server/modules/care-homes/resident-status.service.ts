import { CARE_HOME_MESSAGES, type TResidentStatus } from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { Actor } from '../access/actor';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { fullName } from '../mail/mail-layout';
import { findUserById } from '../users/users.repository';
import { mailBrandOf } from './care-home-brand';
import { residentDiedMail, residentLeftMail } from './care-homes.mails';
import { findNextOfKinOf, findResidentLink, updateResidentLink } from './care-homes.repository';
import { requireOwnHome } from './care-homes.service';

type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'mail'>;

const WORDS: Record<TResidentStatus, string> = {
  active: 'is back at',
  left: 'has left',
  died: 'has died, at',
};

/**
 * PUT /api/care-home/residents/:id/status: the manager records that a resident left the home,
 * came back, or died. A leaver keeps every message and their family keeps watching; the home
 * stops seeing them at the stations. A death only tells the next of kin they may ask for the
 * legacy release: the home releases nothing, and a death once recorded stays.
 */
export async function setResidentStatus(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; linkId: number; status: TResidentStatus },
): Promise<{ status: TResidentStatus; statusChangedAt: string }> {
  const home = await requireOwnHome(deps, input.actor);
  const link = await findResidentLink(deps.db, input.linkId);
  if (!link || link.careHomeId !== home.id) {
    throw new AppError('NOT_FOUND', CARE_HOME_MESSAGES.notFound);
  }
  if (link.status === 'died') throw new AppError('CONFLICT', CARE_HOME_MESSAGES.diedIsFinal);
  if (link.status === input.status) {
    throw new AppError('CONFLICT', CARE_HOME_MESSAGES.statusUnchanged);
  }
  const resident = await findUserById(deps.db, link.userId);
  if (!resident) throw new AppError('NOT_FOUND', CARE_HOME_MESSAGES.notFound);
  const now = deps.clock.now();
  const manager = `${fullName(input.actor.user)}, manager of ${home.name}`;
  const message = `${home.name} recorded that ${fullName(resident)} ${WORDS[input.status]} ${home.name}`;
  await deps.db.transaction(async (tx) => {
    await updateResidentLink(tx, link.id, { status: input.status, statusChangedAt: now });
    const kin = await findNextOfKinOf(tx, [resident.id]);
    for (const nextOfKin of kin) {
      if (input.status === 'died') {
        await deps.mail.enqueue(
          tx,
          residentDiedMail({
            nextOfKin,
            resident,
            homeName: home.name,
            appUrl: deps.config.APP_URL,
            brand: mailBrandOf(home, deps.config.APP_URL),
          }),
        );
      } else if (input.status === 'left') {
        await deps.mail.enqueue(tx, residentLeftMail({ nextOfKin, resident, homeName: home.name }));
      }
    }
    const details = { message, actor: manager };
    await recordAccountEvent(tx, context, resident, {
      eventType: 'care_home_resident_status',
      details,
    });
    await recordAccountEvent(tx, context, input.actor.user, {
      eventType: 'care_home_resident_status',
      details,
    });
  });
  deps.mail.kick();
  return { status: input.status, statusChangedAt: now.toISOString() };
}

import { and, eq, gte, sql } from 'drizzle-orm';
import {
  SUPPORT_CATEGORY_LABELS,
  SUPPORT_MESSAGES,
  SUPPORT_TARGET_HOURS,
  SUPPORT_TARGET_WORDS,
  type TAdminSupportRequest,
  type TSupportAnswer,
  type TSupportRequest,
  type TSupportRequestBody,
} from '../../../shared/schemas/support';
import { isCareHomePlan } from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { supportRequests } from '../../db/schema';
import { AppError } from '../../errors';
import type { Actor } from '../access/actor';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import {
  findHomeById,
  findHomeOfManager,
  type HomeSummaryRow,
} from '../care-homes/care-homes.repository';
import { fullName } from '../mail/mail-layout';
import type { SessionUser } from '../users/users.repository';
import { findUserById } from '../users/users.repository';
import { supportRequestMail } from './support.mails';
import {
  findAdminEmails,
  findHomeIdOfStaff,
  insertSupportRequest,
  listAllRequests,
  listHomeRequests,
  lockSupportRequest,
  updateSupportRequest,
  type SupportRow,
} from './support.repository';
import { addWorkingHours } from './working-hours';

type Deps = Pick<AppDeps, 'clock' | 'db' | 'mail' | 'config'>;

/** A home sends at most this many requests a day: enough for a bad day, not for a flood. */
const REQUESTS_PER_HOME_PER_DAY = 20;
const LIST_LIMIT = 50;
const ADMIN_LIST_LIMIT = 200;

/** The home this person manages or works at; nobody else asks for the home's support. */
async function requireHomeOf(deps: Pick<AppDeps, 'db'>, actor: Actor): Promise<HomeSummaryRow> {
  if (actor.pairingId === null && actor.user.category === 'primary') {
    const managed = await findHomeOfManager(deps.db, actor.user.id);
    if (managed) return managed;
    const staffHomeId = await findHomeIdOfStaff(deps.db, actor.user.id);
    const home = staffHomeId === undefined ? undefined : await findHomeById(deps.db, staffHomeId);
    if (home) return home;
  }
  throw new AppError('FORBIDDEN', SUPPORT_MESSAGES.noHome);
}

/** Professional (or its trial) on the manager's account is what buys priority. */
async function isPriorityHome(deps: Pick<AppDeps, 'db'>, home: HomeSummaryRow): Promise<boolean> {
  const manager = await findUserById(deps.db, home.managerId);
  return manager !== undefined && isCareHomePlan(manager.subscriptionTier);
}

const levelOf = (isPriority: boolean) => (isPriority ? 'priority' : 'standard');

function toSupportRequest(row: SupportRow): TSupportRequest {
  return {
    id: row.id,
    category: row.category,
    urgency: row.urgency,
    description: row.description,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
    target: SUPPORT_TARGET_WORDS[levelOf(row.isPriority)][row.urgency],
    requesterName: row.requesterName,
  };
}

export async function getHomeSupport(deps: Deps, actor: Actor): Promise<TSupportAnswer> {
  const home = await requireHomeOf(deps, actor);
  const isPriority = await isPriorityHome(deps, home);
  const rows = await listHomeRequests(deps.db, home.id, LIST_LIMIT);
  return {
    isPriority,
    targets: SUPPORT_TARGET_WORDS[levelOf(isPriority)],
    requests: rows.map(toSupportRequest),
  };
}

export async function sendSupportRequest(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; body: TSupportRequestBody },
): Promise<TSupportRequest> {
  const { actor, body } = input;
  const home = await requireHomeOf(deps, actor);
  const isPriority = await isPriorityHome(deps, home);
  const now = deps.clock.now();
  const dueAt = addWorkingHours(now, SUPPORT_TARGET_HOURS[levelOf(isPriority)][body.urgency]);
  const to = deps.config.SUPPORT_EMAIL
    ? [deps.config.SUPPORT_EMAIL]
    : await findAdminEmails(deps.db).then((emails) =>
        emails.length > 0 ? emails : deps.config.ADMIN_EMAIL ? [deps.config.ADMIN_EMAIL] : [],
      );
  const requester = { name: fullName(actor.user), email: actor.user.email };
  const row = await deps.db.transaction(async (tx) => {
    const [sent] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(supportRequests)
      .where(
        and(
          eq(supportRequests.careHomeId, home.id),
          gte(supportRequests.createdAt, new Date(now.getTime() - 24 * 3600_000)),
        ),
      );
    if ((sent?.n ?? 0) >= REQUESTS_PER_HOME_PER_DAY) {
      throw new AppError(
        'RATE_LIMITED',
        `${home.name} has sent ${REQUESTS_PER_HOME_PER_DAY} requests today. Please add to an earlier one by replying to our email.`,
      );
    }
    const saved = await insertSupportRequest(tx, {
      careHomeId: home.id,
      requesterId: actor.user.id,
      requesterName: requester.name,
      requesterEmail: requester.email,
      isPriority,
      category: body.category,
      urgency: body.urgency,
      description: body.description,
      diagnostics: body.diagnostics ?? null,
      dueAt,
      createdAt: now,
    });
    for (const address of to) {
      await deps.mail.enqueue(
        tx,
        supportRequestMail({
          to: address,
          homeName: home.name,
          isPriority,
          requester,
          category: body.category,
          urgency: body.urgency,
          description: body.description,
          diagnostics: saved.diagnostics,
          dueAt,
          adminUrl: `${deps.config.APP_URL}/admin?tab=support`,
        }),
      );
    }
    await recordAccountEvent(tx, context, actor.user, {
      eventType: 'support_request_sent',
      details: {
        message: `Asked for help for ${home.name}: ${SUPPORT_CATEGORY_LABELS[body.category]} (${body.urgency})`,
        supportRequestId: saved.id,
      },
    });
    return saved;
  });
  deps.mail.kick();
  return toSupportRequest(row);
}

export async function listSupportForAdmin(deps: Deps): Promise<TAdminSupportRequest[]> {
  const rows = await listAllRequests(deps.db, ADMIN_LIST_LIMIT);
  return rows.map(({ request, homeName, homeSlug }) => ({
    ...toSupportRequest(request),
    homeName,
    homeSlug,
    isPriority: request.isPriority,
    requesterEmail: request.requesterEmail,
    diagnostics: request.diagnostics,
  }));
}

export async function markSupportAnswered(
  deps: Deps,
  context: RequestContext,
  input: { admin: SessionUser; id: number },
): Promise<TSupportRequest> {
  const now = deps.clock.now();
  const answered = await deps.db.transaction(async (tx) => {
    const row = await lockSupportRequest(tx, input.id);
    if (!row) throw new AppError('NOT_FOUND', SUPPORT_MESSAGES.notFound);
    if (row.status === 'answered') return row;
    const saved = await updateSupportRequest(tx, row.id, {
      status: 'answered',
      answeredAt: now,
      answeredById: input.admin.id,
    });
    await recordAudit(tx, context, {
      eventType: 'admin_support_answered',
      userId: input.admin.id,
      username: input.admin.username,
      details: {
        message: `Marked support request ${row.id} from ${row.requesterName} answered`,
        supportRequestId: row.id,
      },
    });
    return saved;
  });
  return toSupportRequest(answered);
}

import {
  LOGO_MAX_BYTES,
  type TCareHome,
  type TCareHomeAnswer,
  type TCareHomeBody,
  type TMyCareHome,
} from '../../../shared/schemas/care-homes';
import { CARE_HOME_MESSAGES } from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { Permission, can, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { findUserById } from '../users/users.repository';
import {
  findHomeOfManager,
  findHomeOfResident,
  findLogoBySlug,
  insertHome,
  isSlugTaken,
  updateHome,
  type HomeSummaryRow,
} from './care-homes.repository';
import { logoPathOf } from './care-home-brand';
import { checkLogo } from './logo';

type Deps = Pick<AppDeps, 'clock' | 'db'>;

export function toCareHome(row: HomeSummaryRow): TCareHome {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    accentHex: row.accentHex,
    logoUrl: logoPathOf(row),
  };
}

/** The manager's own home, or a refusal that tells them to set it up (or to choose the plan). */
export async function requireOwnHome(
  deps: Pick<AppDeps, 'db'>,
  actor: Actor,
): Promise<HomeSummaryRow> {
  requireAccess(actor, Permission.CareHomeManage);
  const home = await findHomeOfManager(deps.db, actor.user.id);
  if (!home) throw new AppError('NOT_FOUND', CARE_HOME_MESSAGES.noHome);
  return home;
}

export async function getCareHome(deps: Deps, actor: Actor): Promise<TCareHomeAnswer> {
  const home =
    actor.user.category === 'primary' ? await findHomeOfManager(deps.db, actor.user.id) : undefined;
  return {
    home: home ? toCareHome(home) : null,
    hasPlan: can(actor, Permission.CareHomeManage),
  };
}

/**
 * GET /api/care-home/mine: for the resident's own account, their home and whether the stations
 * are paused for them (what the "Pause Memento for me" card shows). A leaver sees no home.
 */
export async function getMyCareHome(deps: Deps, actor: Actor): Promise<TMyCareHome> {
  const found =
    actor.user.category === 'primary' && actor.pairingId === null
      ? await findHomeOfResident(deps.db, actor.user.id)
      : undefined;
  if (!found || found.status !== 'active') return { home: null, paused: false };
  return { home: toCareHome(found.home), paused: found.pausedAt !== null };
}

/** 'Rosewood House, Leeds' → 'rosewood-house-leeds'; a number follows when it is taken. */
async function freeSlug(db: DbOrTx, name: string): Promise<string> {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'care-home';
  for (let n = 1; n < 50; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await isSlugTaken(db, slug))) return slug;
  }
  throw new AppError('CONFLICT', CARE_HOME_MESSAGES.slugTaken);
}

/**
 * Sets the home up, or changes its name and colour. Its address (slug) stays as first made, so
 * printed letters keep working. The trial the manager already had counts as the home's.
 */
export async function saveCareHome(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; body: TCareHomeBody },
): Promise<TCareHome> {
  const { actor } = input;
  requireAccess(actor, Permission.CareHomeManage);
  const name = input.body.name.trim();
  const accentHex = input.body.accentHex ?? null;
  const now = deps.clock.now();
  const existing = await findHomeOfManager(deps.db, actor.user.id);
  const saved = await deps.db.transaction(async (tx) => {
    let home: HomeSummaryRow;
    if (existing) {
      home = await updateHome(tx, existing.id, { name, accentHex, updatedAt: now });
    } else {
      const manager = await findUserById(tx, actor.user.id);
      home = await insertHome(tx, {
        managerId: actor.user.id,
        name,
        slug: await freeSlug(tx, name),
        accentHex,
        trialUsedAt: manager?.trialUsedAt ?? null,
      });
    }
    await recordAccountEvent(tx, context, actor.user, {
      eventType: 'care_home_saved',
      details: {
        message: existing ? `Saved the details of ${name}` : `Set up ${name} as a care home`,
      },
    });
    return home;
  });
  return toCareHome(saved);
}

/** A new logo: a PNG or JPEG by its bytes, at most 256 KB and 1024 px a side. */
export async function saveLogo(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; bytes: Buffer; declaredType: string },
): Promise<TCareHome> {
  const home = await requireOwnHome(deps, input.actor);
  if (input.bytes.length > LOGO_MAX_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', CARE_HOME_MESSAGES.logoTooLarge);
  }
  const type = checkLogo(input.bytes, input.declaredType);
  const now = deps.clock.now();
  const saved = await deps.db.transaction(async (tx) => {
    const row = await updateHome(tx, home.id, {
      logo: new Uint8Array(input.bytes),
      logoType: type,
      logoUpdatedAt: now,
      updatedAt: now,
    });
    await recordAccountEvent(tx, context, input.actor.user, {
      eventType: 'care_home_saved',
      details: { message: `Changed the logo of ${home.name}` },
    });
    return row;
  });
  return toCareHome(saved);
}

export async function removeLogo(
  deps: Deps,
  context: RequestContext,
  actor: Actor,
): Promise<TCareHome> {
  const home = await requireOwnHome(deps, actor);
  const now = deps.clock.now();
  const saved = await deps.db.transaction(async (tx) => {
    const row = await updateHome(tx, home.id, {
      logo: null,
      logoType: null,
      logoUpdatedAt: null,
      updatedAt: now,
    });
    await recordAccountEvent(tx, context, actor.user, {
      eventType: 'care_home_saved',
      details: { message: `Removed the logo of ${home.name}` },
    });
    return row;
  });
  return toCareHome(saved);
}

/** The logo's bytes and allow-listed type, or nothing. */
export async function readLogo(deps: Pick<AppDeps, 'db'>, slug: string) {
  const row = await findLogoBySlug(deps.db, slug);
  if (!row?.logo || !row.logoType) return null;
  return { bytes: Buffer.from(row.logo), type: row.logoType };
}

import type { TExternalProvider } from '../../../shared/domain/enums';
import type { TSignInMethods } from '../../../shared/schemas/external-sign-in';
import { AppError } from '../../errors';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { findUserById, type SessionUser } from '../users/users.repository';
import { deleteIdentity, findIdentitiesOfUser } from './external-sign-in.repository';
import type { Deps } from './external-sign-in.service';

export async function listSignInMethods(deps: Deps, user: SessionUser): Promise<TSignInMethods> {
  const row = await findUserById(deps.db, user.id);
  const identities = await findIdentitiesOfUser(deps.db, user.id);
  return {
    hasPassword: Boolean(row?.passwordHash),
    identities: identities.map((identity) => ({
      provider: identity.provider,
      providerName: deps.externalProviders.find(identity.provider)?.name ?? identity.provider,
      email: identity.email,
      linkedAt: identity.createdAt.toISOString(),
      lastSignInAt: identity.lastSignInAt?.toISOString() ?? null,
    })),
  };
}

export const LAST_SIGN_IN_METHOD_MESSAGE =
  'This is the only way you can sign in, so it cannot be removed. Set a password or link another sign-in first.';

/** A provider may be unlinked only while another way to sign in remains (a password, another provider). */
export async function unlinkProvider(
  deps: Deps,
  context: RequestContext,
  input: { user: SessionUser; provider: TExternalProvider },
): Promise<TSignInMethods> {
  const { user } = input;
  const identities = await findIdentitiesOfUser(deps.db, user.id);
  const target = identities.find((identity) => identity.provider === input.provider);
  if (!target) throw new AppError('NOT_FOUND', 'This sign-in is not linked to your account.');
  const providerName = deps.externalProviders.find(input.provider)?.name ?? input.provider;
  const details = { method: 'external_provider', provider: input.provider, providerName };
  const row = await findUserById(deps.db, user.id);
  const hasOtherWay = Boolean(row?.passwordHash) || identities.length > 1;
  if (!hasOtherWay) {
    await recordAccountEvent(deps.db, context, user, {
      eventType: 'provider_unlinked',
      successful: false,
      details: { ...details, reason: 'the only way to sign in' },
    });
    throw new AppError('LAST_SIGN_IN_METHOD', LAST_SIGN_IN_METHOD_MESSAGE);
  }
  await deps.db.transaction(async (tx) => {
    await deleteIdentity(tx, target.id);
    await recordAccountEvent(tx, context, user, {
      eventType: 'provider_unlinked',
      details,
    });
  });
  return listSignInMethods(deps, user);
}

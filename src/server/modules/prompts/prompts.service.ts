import { MESSAGES } from '../../../shared/domain/errors';
import type { TPrompt } from '../../../shared/schemas/recipients';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { findRecipientOf } from '../recipients/recipients.repository';
import { PROMPT_CATALOGUE } from './prompts.catalogue';

/** The prompts for one of the owner's recipients, chosen by the recipient's category. */
export async function promptsFor(
  deps: { db: Db },
  actor: Actor,
  recipientId: number,
): Promise<TPrompt[]> {
  requireAccess(actor, Permission.MessagesChange);
  const recipient = await findRecipientOf(deps.db, actor.user.id, recipientId);
  if (!recipient) throw new AppError('NOT_FOUND', MESSAGES.recipientNotFound);
  return PROMPT_CATALOGUE[recipient.category as TPrompt['category']];
}

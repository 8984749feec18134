import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { videos } from '../../../src/server/db/schema';
import type { TRecipientCreated } from '../../../src/shared/schemas/recipients';
import type { TUser } from '../../../src/shared/schemas/auth';
import { TestDevice, type TestApp } from '../../setup/app';
import { createPaidOwner } from '../../setup/cloud';
import {
  codeKdfParams,
  generateContentKey,
  splitSecret,
  wrapKey,
  wrapLabel,
} from '../../../src/shared/sealing';
import { WRAP_LABEL_PARTS } from '../../../src/shared/schemas/encryption';
import { makeSealedCard, newPasswordSplit, turnOn } from '../../setup/encryption';

// Sealed recipient cards in the API tests: an owner with enhanced encryption on, the people they
// add with cards made as their browser makes them, and those people signing in with a proof.

export type SealedCard = Awaited<ReturnType<typeof makeSealedCard>>;

/** A premium owner with a next of kin (added before it was on) and enhanced encryption on. */
export async function createSealedOwner(t: TestApp) {
  const owner = await createPaidOwner(t);
  const accountKey = await turnOn(owner.device, owner.user.id);
  return { ...owner, accountKey };
}
export type SealedOwner = Awaited<ReturnType<typeof createSealedOwner>>;

let counter = 0;
/** Someone to add: a family member unless said otherwise, with an email of their own. */
export function person(category: 'family' | 'friend' | 'next_of_kin' = 'family') {
  counter += 1;
  return {
    firstName: 'Anna',
    lastName: `Card${counter}`,
    email: `anna${counter}.${randomUUID().slice(0, 6)}@example.test`,
    category,
    ...(category === 'next_of_kin' ? { phoneNumber: '+44 7700 900777', relationship: 'Son' } : {}),
  };
}

/** Adds someone with a card made on the owner's device; answers them and their card. */
export async function addWithCard(owner: SealedOwner, who = person()) {
  const card = await makeSealedCard(owner.accountKey, who.email);
  const res = await owner.device.post('/api/recipients', { ...who, sealedCard: card.body });
  expect(res.statusCode).toBe(201);
  return { ...who, ...res.json<TRecipientCreated>(), card };
}

/** A sign-in as the browser sends it first: the email and the code's proof. */
export function signInWithProof(device: TestDevice, email: string, codeProof: string) {
  return device.post('/api/login', {
    email,
    codeProof,
    method: 'email_access_code',
    deviceId: device.deviceId,
  });
}

/** A new device of the recipient's, signed in with their card's proof; answers it and the answer. */
export async function recipientSignedIn(t: TestApp, email: string, card: SealedCard) {
  const device = await TestDevice.create(t.app);
  const res = await signInWithProof(device, email, card.proof);
  expect(res.statusCode).toBe(200);
  return { device, user: res.json<TUser>() };
}

/**
 * A sealed message already in the cloud for this recipient, as a finished upload leaves it (no
 * wrap for the recipient yet); answers its id and content key.
 */
export async function insertSealedMessage(t: TestApp, owner: SealedOwner, recipientId: number) {
  const id = randomUUID();
  const contentKey = await generateContentKey();
  await t.db.insert(videos).values({
    id,
    creatorId: owner.user.id,
    recipientId,
    title: 'Sealed for you',
    storageType: 'cloud',
    syncStatus: 'synced',
    cloudPath: randomUUID().replaceAll('-', ''),
    byteSize: 1000,
    durationMs: 3000,
    mimeType: 'video/webm',
    sealedKeyWrap: await wrapKey(
      contentKey,
      owner.accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(id)),
    ),
  });
  return { id, contentKey };
}

export const labelOf = (ownerId: number, keyId: string) =>
  wrapLabel(...WRAP_LABEL_PARTS.accountByNextOfKin(ownerId, keyId));

/** The next of kin's card as the owner's browser makes it: with the account key in escrow. */
export async function giveNextOfKinCard(owner: SealedOwner) {
  const email = owner.nextOfKin.email;
  const card = await makeSealedCard(owner.accountKey, email);
  const { keyHalf } = await splitSecret('code', card.code, await codeKdfParams(email));
  const escrowWrap = await wrapKey(owner.accountKey, keyHalf, labelOf(owner.user.id, card.keyId));
  const res = await owner.device.post(`/api/recipients/${owner.nextOfKin.id}/sealed-card`, {
    ...card.body,
    escrowWrap,
  });
  expect(res.statusCode).toBe(200);
  return { ...card, escrowWrap, email };
}
export type KinCard = Awaited<ReturnType<typeof giveNextOfKinCard>>;

/**
 * Break-glass with the next of kin's card (the new password sent as its proof), then the owner's
 * own tablet, whose browser kept no key, signs in with the new password.
 */
export async function takenOver(t: TestApp, owner: SealedOwner, kin: KinCard, password: string) {
  const newPassword = await newPasswordSplit(password);
  const reset = await (
    await TestDevice.create(t.app)
  ).post('/api/break-glass-reset', {
    nextOfKinEmail: kin.email,
    codeProof: kin.proof,
    ...newPassword.body,
  });
  expect(reset.statusCode).toBe(200);
  const signIn = await owner.device.post('/api/login', {
    username: owner.user.username,
    passwordProof: newPassword.signInProof,
    deviceId: owner.device.deviceId,
  });
  expect(signIn.statusCode).toBe(200);
  return newPassword;
}

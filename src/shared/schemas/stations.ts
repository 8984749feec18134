import { z } from 'zod';

/** Recording stations: a home's shared tablet, a carer's PIN, a record-only session. */

/** A station session ends after this long without a request (the screen also wipes itself). */
export const STATION_IDLE_MS = 30 * 60_000;
/** The most one take sent from a station may hold. */
export const STATION_MAX_BYTES = 200 * 1024 * 1024;

export const STATION_MESSAGES = {
  notStation: 'This tablet is not a recording station.',
  notHere: 'Please do this on the tablet itself, signed in as the manager.',
  ownMainDevice:
    'This is your own main device, so it cannot become a station. Please sign in on the home’s tablet and make it the station there.',
  alreadyStation: 'This tablet is already a recording station.',
  notStaff: 'Only staff of a care home can set a station PIN.',
  pinFormat: 'Please choose a PIN of 4 to 6 numbers.',
  wrongPin: 'That PIN is not right. Please try again.',
  pinLocked: 'Too many wrong PINs. Please wait 15 minutes, or ask your manager for help.',
  sessionEnded: 'The station session has ended. Please sign in again with your PIN.',
  pickResident: 'Please choose who is recording first.',
  residentNotOffered: 'This person is not offered at this station.',
  recipientNotFound: 'Please choose who this message is for.',
  noCloud:
    'This message cannot be saved here: their plan keeps messages only on their own tablet. Please record on their own tablet instead.',
  saveFailed: 'The message could not be saved. Please try again.',
  tooLarge: 'This recording is too large to save from a station.',
} as const;

export const ZMakeStationBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Please give the tablet a name, such as "Lounge tablet".')
    .max(60, 'Please keep the name under 60 characters.'),
});

export const ZPin = z.string().regex(/^[0-9]{4,6}$/, STATION_MESSAGES.pinFormat);
export const ZSetPinBody = z.object({ pin: ZPin });
export const ZStationSignInBody = z.object({
  staffId: z.number().int().positive(STATION_MESSAGES.wrongPin),
  pin: ZPin,
});
export const ZPickResidentBody = z.object({
  residentId: z.number().int().positive(STATION_MESSAGES.residentNotOffered),
});
export const ZStationRecordingQuery = z.object({
  /** Chosen by the station for each take: saving the same take again saves nothing more. */
  takeId: z.uuid({ error: STATION_MESSAGES.saveFailed }),
  recipientId: z.coerce.number().int().positive(STATION_MESSAGES.recipientNotFound),
  durationMs: z.coerce.number().int().min(0).max(3_600_000),
  /** 'yes' when the resident shares it with their home's care team too. */
  careTeam: z.enum(['yes', 'no'], { error: STATION_MESSAGES.saveFailed }).default('no'),
});
export const ZPauseBody = z.object({ paused: z.boolean() });

export interface TStationResident {
  id: number;
  name: string;
}
export type TStationRecipient = TStationResident;

export interface TStationAnswer {
  station: { name: string };
  home: { name: string; accentHex: string | null; slug: string; hasLogo: boolean };
  staff: { id: number; name: string }[];
  session: { staffName: string; resident: { name: string } | null } | null;
}

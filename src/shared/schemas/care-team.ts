import { z } from 'zod';

/**
 * "Share with the care team": a resident lets the staff and manager of their care home watch one
 * message's cloud copy, message by message, and can take it back at any time.
 */

export const CARE_TEAM_MESSAGES = {
  notResident: 'Only a resident of a care home can share a message with its care team.',
  ownDevice: 'Only you, on your own tablet, can choose who sees your messages.',
  messageNotFound: 'There is no such message.',
  sealed:
    'Your messages are sealed with enhanced encryption: only you and the people you gave a card to can open them. Memento cannot open them for the care team, so they cannot be shared with it.',
  onDevice:
    'The care team can only watch messages kept in the cloud. Your plan keeps your videos on this tablet, so they cannot be shared with the care team from here. Messages recorded at the home’s recording station are kept in the cloud and can be.',
  notStaff:
    'Only the staff and the manager of a care home see the messages its residents share with them.',
} as const;

/** Why a resident may not share (a new message from their own tablet) with the care team. */
export type TCareTeamWhyNot = 'sealed' | 'on_device';

export const ZCareTeamShareParams = z.object({
  videoId: z.uuid({ error: CARE_TEAM_MESSAGES.messageNotFound }),
});

/**
 * Whether the care team can watch a shared message now: yes; once its copy reaches the cloud;
 * once it opens (its date, or the legacy release); or never, as the account seals its copies.
 */
export type TCareTeamShareState = 'watchable' | 'waiting_for_copy' | 'not_open_yet' | 'sealed';

/** One message the resident shares, as the resident sees it. */
export interface TResidentShare {
  videoId: string;
  /** Null while the message has no cloud copy (titles reach the server only with one). */
  title: string | null;
  createdAt: string;
  sharedAt: string;
  state: TCareTeamShareState;
}

/** GET /api/care-home/care-team/mine: the resident's home, whether they may share, and what. */
export interface TCareTeamMine {
  /** Null for anyone who does not live at a care home now. */
  home: { name: string } | null;
  whyNot: TCareTeamWhyNot | null;
  shares: TResidentShare[];
}

/** One message a resident shared, as the care team sees it. */
export interface TCareTeamMessage {
  videoId: string;
  residentName: string;
  title: string;
  createdAt: string;
  durationMs: number;
}

/** GET /api/care-home/care-team/shared: what residents share with this person's care team. */
export interface TCareTeamShared {
  homeName: string;
  messages: TCareTeamMessage[];
}

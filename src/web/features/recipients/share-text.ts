import { formatCode } from '@shared/domain/codes';
import type { TRecipientCategory } from '@shared/schemas/recipients';

export interface TShareTarget {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  category: TRecipientCategory;
}

/** The words a recipient needs to sign in, as sent through the share sheet or copied. */
export function buildShareText(input: {
  target: TShareTarget;
  ownerName: string;
  code: string;
  origin: string;
}): string {
  const { target, ownerName, code, origin } = input;
  return [
    `${ownerName} is recording video messages for you on Memento.`,
    `To sign in, open ${origin}/auth and choose "Recipient email and access code".`,
    `Email: ${target.email}`,
    `Access code: ${formatCode(code)}`,
    target.category === 'next_of_kin'
      ? 'This is also your emergency code: please keep it private and safe.'
      : 'Please keep this code private.',
  ].join('\n');
}

export type TShareOutcome = 'shared' | 'copied' | 'manual' | 'cancelled';

/** The device's share sheet, then the clipboard, then by hand. */
export async function shareOrCopy(title: string, text: string): Promise<TShareOutcome> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, text });
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'manual';
  }
}

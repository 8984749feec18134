import { isCareHomePlan } from '../../../shared/schemas/care-homes';
import type { TTier } from '../../../shared/domain/enums';
import type { DbOrTx } from '../../db/client';
import type { MailBrand } from '../mail/mail-layout';
import { findHomeOfResident, type HomeSummaryRow } from './care-homes.repository';

/** Where the home's logo is served; the version changes with the logo, so no cache keeps an old one. */
export function logoPathOf(home: Pick<HomeSummaryRow, 'slug' | 'logoUpdatedAt'>): string | null {
  return home.logoUpdatedAt
    ? `/api/care-homes/${home.slug}/logo?v=${home.logoUpdatedAt.getTime()}`
    : null;
}

/**
 * Branding is part of the home's plan: once the manager's plan (or its trial) has lapsed, families
 * see Memento's own pages and mail again, and nothing of the home's styling.
 */
export const isBrandShown = (managerTier: TTier) => isCareHomePlan(managerTier);

/** The home's branding for mail, its logo's address absolute on the app's own address. */
export function mailBrandOf(home: HomeSummaryRow, appUrl: string): MailBrand {
  const path = logoPathOf(home);
  return {
    name: home.name,
    accentHex: home.accentHex,
    logoUrl: path ? `${appUrl.replace(/\/+$/, '')}${path}` : null,
  };
}

/**
 * The branding on mail to this owner's family: their care home's while they live there. A leaver's
 * family (and everyone not in a home) gets Memento's own mail; so do the family of a resident who
 * died, apart from the home's own notice of the death, which names the home it comes from; and
 * so do all families once the home's plan has lapsed.
 */
export async function brandForOwner(
  db: DbOrTx,
  ownerId: number,
  appUrl: string,
): Promise<MailBrand | undefined> {
  const found = await findHomeOfResident(db, ownerId);
  return found?.status === 'active' && isBrandShown(found.managerTier)
    ? mailBrandOf(found.home, appUrl)
    : undefined;
}

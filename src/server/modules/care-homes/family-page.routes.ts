import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TCareHome } from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { perIpLimit } from '../../plugins/rate-limit';
import { isBrandShown } from './care-home-brand';
import { findHomeAndPlanBySlug } from './care-homes.repository';
import { toCareHome } from './care-homes.service';

/** Every family's sign-in page of a home asks once; printed letters send many at once. */
const BRANDING_LIMIT = { max: 1000, timeWindow: 15 * 60_000 };

const HOME_NOT_FOUND = 'We could not find this care home. Please check the address on your letter.';

const ZSlugParams = z.object({
  slug: z.string().regex(/^[a-z0-9-]{1,60}$/, HOME_NOT_FOUND),
});

/** A home's public face for its families: name, accent and logo; nothing about its residents. */
export const familyPageRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/care-homes/:slug',
      {
        schema: { params: ZSlugParams },
        config: { rateLimit: perIpLimit(BRANDING_LIMIT), isDeviceOptional: true },
      },
      async (request): Promise<TCareHome> => {
        const found = await findHomeAndPlanBySlug(deps.db, request.params.slug);
        if (!found) throw new AppError('NOT_FOUND', HOME_NOT_FOUND);
        const home = toCareHome(found.home);
        // The families still find their sign-in by the home's name after its plan lapsed.
        return isBrandShown(found.managerTier) ? home : { ...home, accentHex: null, logoUrl: null };
      },
    );
  };

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { createPrimaryUser, useTestApp } from '../setup/app';

// A care home's families see its name, colour and logo before they sign in, and nothing else.

const t = useTestApp({ admin: true });

describe('a care home’s page for families', () => {
  it('gives the name, accent and logo address to anyone, and no resident or manager', async () => {
    const manager = await createPrimaryUser(t);
    await t.db
      .update(users)
      .set({ subscriptionTier: 'professional' })
      .where(eq(users.id, manager.user.id));
    const made = await manager.device.request({
      method: 'PUT',
      url: '/api/care-home',
      payload: { name: 'Rosewood House', accentHex: '#0f5e5a' },
    });
    const { slug } = made.json<{ slug: string }>();

    const seen = await t.app.inject({ method: 'GET', url: `/api/care-homes/${slug}` });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({
      id: made.json<{ id: number }>().id,
      name: 'Rosewood House',
      slug,
      accentHex: '#0f5e5a',
      logoUrl: null,
    });
    expect(seen.body).not.toContain(manager.user.email);

    const missing = await t.app.inject({ method: 'GET', url: '/api/care-homes/no-such-home' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      message: 'We could not find this care home. Please check the address on your letter.',
    });
    const odd = await t.app.inject({ method: 'GET', url: '/api/care-homes/Not%20A%20Slug' });
    expect(odd.statusCode).toBe(400);
  });
});

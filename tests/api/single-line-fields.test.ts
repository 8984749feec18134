import { describe, expect, it } from 'vitest';
import { buildRegistration, createOnboardedUser, TestDevice, useTestApp } from '../setup/app';

// A name with a line break could show a fake 'Bcc: …' line in a mail's plain text. Names and other
// one-line fields refuse line breaks and control characters, plainly.

const MESSAGE = 'Please use one line without hidden characters.';
const INJECTED = [
  'Ann\r\nBcc: someone@evil.test',
  'Ann\nHale',
  'Ann\u0000',
  'Ann\u2028Hale',
  'Ann\u0085',
];

const t = useTestApp();

describe('one-line fields', () => {
  it.each(INJECTED)('refuses %j as a first name at registration', async (firstName) => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/register', buildRegistration(device, { firstName }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', fields: { firstName: MESSAGE } });
  });

  it('refuses them in a recipient’s names and relationship, and keeps ordinary names', async () => {
    const owner = await createOnboardedUser(t);
    const bad = await owner.device.post('/api/recipients', {
      firstName: 'Fay',
      lastName: 'Fox\r\nBcc: someone@evil.test',
      email: 'fay@example.test',
      category: 'friend',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ lastName: MESSAGE });
    const relationship = await owner.device.post('/api/recipients', {
      firstName: 'Sam',
      lastName: 'Hill',
      email: 'sam@example.test',
      category: 'next_of_kin',
      phoneNumber: '+44 7700 900124',
      relationship: 'Son\nBcc: x@evil.test',
    });
    expect(relationship.json().fields).toEqual({ relationship: MESSAGE });
    const good = await owner.device.post('/api/recipients', {
      firstName: 'Zoë',
      lastName: "O'Brien-Núñez",
      email: 'zoe@example.test',
      category: 'family',
    });
    expect(good.statusCode).toBe(201);
  });
});

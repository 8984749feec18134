import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, render, type Person } from '../mail/mail-layout';

export function deviceMoveCodeMail(input: {
  owner: Person;
  code: string;
  deviceName: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} code to use a new device`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `You asked to use your ${PRODUCT} account on a new device (${input.deviceName}). Your code is:`,
      `Enter it on that device to move your account there. The code works once and stops working in 30 minutes. Videos stored on your old device stay there.`,
      `If you did not ask for this, someone knows your password: please change it as soon as you can.`,
    ],
    code: input.code,
  });
}

export function deviceMovedMail(input: {
  owner: Person;
  deviceName: string;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} account moved to a new device`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `Your ${PRODUCT} account is now on a new device (${input.deviceName}). Your old device has been signed out and can no longer open the account.`,
      `If this was not you, please speak to your next of kin or whoever helps you with ${PRODUCT} straight away.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

export function deviceAddCodeMail(input: {
  owner: Person;
  code: string;
  deviceName: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} code to add a device`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `You asked to use your ${PRODUCT} account on another device (${input.deviceName}) as well. Your code is:`,
      `Enter it on that device to add it. The code works once and stops working in 30 minutes. Your other devices stay as they are.`,
      `If you did not ask for this, someone knows your password: please change it as soon as you can.`,
    ],
    code: input.code,
  });
}

export function deviceAddedMail(input: {
  owner: Person;
  deviceName: string;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `A device was added to your ${PRODUCT} account`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `${input.deviceName} can now open your ${PRODUCT} account and watch your messages in the cloud. Recording stays on your primary device.`,
      `If this was not you, sign in on your primary device, change your password, and ask the person who looks after ${PRODUCT} to remove the device.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

export function primaryDeviceChangedMail(input: {
  owner: Person;
  deviceName: string;
  appUrl: string;
}): OutgoingMail {
  return render({
    to: input.owner.email,
    subject: `Your ${PRODUCT} primary device has changed`,
    greeting: `Dear ${input.owner.firstName},`,
    paragraphs: [
      `${input.deviceName} is now your primary device: you record there from now on, and your messages sync from it.`,
      `If this was not you, change your password straight away and speak to the person who looks after ${PRODUCT}.`,
    ],
    action: { label: `Open ${PRODUCT}`, url: input.appUrl },
  });
}

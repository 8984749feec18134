import type { OutgoingMail } from '../mail/mail.repository';
import { PRODUCT, openAppAction, renderFor, type Person } from '../mail/mail-layout';

/** A code the owner asked for to use their account on another device. */
interface DeviceCodeMail {
  owner: Person;
  code: string;
  deviceName: string;
}

/** A notice to the owner that one of their devices changed, with the way back to the app. */
interface DeviceNotice {
  owner: Person;
  deviceName: string;
  appUrl: string;
}

/** What a code mail tells an owner who did not ask for it. */
const NOT_YOU_PASSWORD_KNOWN = `If you did not ask for this, someone knows your password: please change it as soon as you can.`;

export function deviceMoveCodeMail(input: DeviceCodeMail): OutgoingMail {
  return renderFor(input.owner, {
    subject: `Your ${PRODUCT} code to use a new device`,
    paragraphs: [
      `You asked to use your ${PRODUCT} account on a new device (${input.deviceName}). Your code is:`,
      `Enter it on that device to move your account there. The code works once and stops working in 30 minutes. Videos stored on your old device stay there.`,
      NOT_YOU_PASSWORD_KNOWN,
    ],
    code: input.code,
  });
}

export function deviceMovedMail(input: DeviceNotice): OutgoingMail {
  return renderFor(input.owner, {
    subject: `Your ${PRODUCT} account moved to a new device`,
    paragraphs: [
      `Your ${PRODUCT} account is now on a new device (${input.deviceName}). Your old device has been signed out and can no longer open the account.`,
      `If this was not you, please speak to your next of kin or whoever helps you with ${PRODUCT} straight away.`,
    ],
    action: openAppAction(input.appUrl),
  });
}

export function deviceAddCodeMail(input: DeviceCodeMail): OutgoingMail {
  return renderFor(input.owner, {
    subject: `Your ${PRODUCT} code to add a device`,
    paragraphs: [
      `You asked to use your ${PRODUCT} account on another device (${input.deviceName}) as well. Your code is:`,
      `Enter it on that device to add it. The code works once and stops working in 30 minutes. Your other devices stay as they are.`,
      NOT_YOU_PASSWORD_KNOWN,
    ],
    code: input.code,
  });
}

export function deviceAddedMail(input: DeviceNotice): OutgoingMail {
  return renderFor(input.owner, {
    subject: `A device was added to your ${PRODUCT} account`,
    paragraphs: [
      `${input.deviceName} can now open your ${PRODUCT} account and watch your messages in the cloud. Recording stays on your primary device.`,
      `If this was not you, sign in on your primary device, change your password, and ask the person who looks after ${PRODUCT} to remove the device.`,
    ],
    action: openAppAction(input.appUrl),
  });
}

export function primaryDeviceChangedMail(input: DeviceNotice): OutgoingMail {
  return renderFor(input.owner, {
    subject: `Your ${PRODUCT} primary device has changed`,
    paragraphs: [
      `${input.deviceName} is now your primary device: you record there from now on, and your messages sync from it.`,
      `If this was not you, change your password straight away and speak to the person who looks after ${PRODUCT}.`,
    ],
    action: openAppAction(input.appUrl),
  });
}

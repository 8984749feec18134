import { Cloud, FileLock2, Printer, Users } from 'lucide-react';
import type { ReactNode } from 'react';

function Point({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-1">
      <h3 className="flex items-start gap-3 text-xl font-bold">
        <span className="mt-0.5 inline-flex shrink-0 text-primary [&>svg]:size-7">{icon}</span>
        {title}
      </h3>
      {/* Under the title, full width on a phone; beside the icon's column from a tablet up. */}
      <p className="text-lg sm:pl-10">{children}</p>
    </li>
  );
}

/** The first step: what turning it on changes, honestly, before anything is done. */
export function WhatChanges() {
  return (
    <ul className="flex flex-col gap-6">
      <Point icon={<FileLock2 aria-hidden="true" />} title="Sealed before they leave">
        Every message this device sends to the cloud from now on is sealed first, in your browser.
        Memento keeps only the sealed copy and cannot open it.
      </Point>
      <Point icon={<Cloud aria-hidden="true" />} title="Memento cannot help you open them">
        Memento can no longer open your sealed messages, email codes that open them, or get them
        back for you. Only your password, a device you have unlocked, or your recovery sheet can.
      </Point>
      <Point icon={<Printer aria-hidden="true" />} title="Keep your recovery sheet safe">
        Next you will print a recovery sheet. If you forget your password, it is your way back. Keep
        it with your important papers, where your family could find it.
      </Point>
      <Point icon={<Users aria-hidden="true" />} title="New cards for your recipients">
        Each person you record for will need a new card from you, made on this device, to open your
        sealed messages. Messages already in the cloud are sealed again from this device once their
        recipient has a new card. Once it is on, it stays on.
      </Point>
    </ul>
  );
}

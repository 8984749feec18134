import { HeartHandshake, Lock, MonitorSmartphone } from 'lucide-react';

const PROMISES = [
  { icon: HeartHandshake, text: 'Record video messages in your own words, at your own pace.' },
  {
    icon: MonitorSmartphone,
    text: 'In the Community Edition your videos stay on this device and are never uploaded.',
  },
  {
    icon: Lock,
    text: 'Your account is tied to this device, and every sign-in is recorded in a security log.',
  },
];

/** Beside the form on a wide screen: what Memento is for. */
export function Introduction() {
  return (
    <section
      aria-label="About Memento"
      className="hidden flex-col justify-center gap-8 rounded-xl bg-primary p-10 text-primary-foreground shadow-soft lg:flex"
    >
      <p className="text-4xl leading-tight font-bold tracking-tight text-balance">
        Messages for the people you love, kept safe.
      </p>
      <ul className="flex flex-col gap-5 text-lg">
        {PROMISES.map(({ icon: Icon, text }) => (
          <li key={text} className="flex items-start gap-4">
            <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-white/15">
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <span className="pt-1.5">{text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Kind words for a next of kin who may be here at a hard time. */
export function EmergencyAccessIntroduction() {
  return (
    <div className="flex flex-col gap-3 rounded-lg bg-muted p-5">
      <p>
        We are sorry if you are here at a difficult time. Take your time: it only takes a few
        minutes.
      </p>
      <ul className="flex list-disc flex-col gap-1.5 pl-6">
        <li>
          Use the email address your emergency code was sent to, and the code from that email.
        </li>
        <li>The account holder is signed out everywhere and told by email.</li>
        <li>We then send you a new emergency code, as each code works once.</li>
      </ul>
    </div>
  );
}

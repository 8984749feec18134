import { useAfterFirstPaint } from '@web/lib/use-after-first-paint';
import { usePrefersReducedMotion } from '@web/lib/use-reduced-motion';
import { BANNER_POSTER } from './banner-media';

/**
 * The banner moves for its first four seconds and then rests on that frame: the media
 * fragment's end time (`#t=0,4`) has the browser itself pause there. Motion that starts by
 * itself and lasts more than five seconds would need a control to stop it, under the web's
 * accessibility guidelines.
 */
const MOTION = '#t=0,4';

const BANNER_MEDIA = {
  webm: `/media/banner.webm${MOTION}`,
  mp4: `/media/banner.mp4${MOTION}`,
  poster: BANNER_POSTER,
} as const;

function keepMutedAndPlay(video: HTMLVideoElement | null) {
  if (!video) return;
  // Browsers only autoplay muted video; set it on the element itself before playing.
  video.muted = true;
  video.defaultMuted = true;
  video.play().catch(() => {
    // Autoplay refused (power saving, data saver): the poster stays, which is fine.
  });
}

/** Where this account's messages are kept, as the person at this device should read it. */
export type TKeptWhere = 'device' | 'device-and-cloud' | 'cloud';

const KEPT_WHERE: Record<TKeptWhere, string> = {
  device: 'kept safe on this device',
  'device-and-cloud': 'kept safe on this device and in the cloud',
  cloud: 'kept safe in the cloud',
};

/**
 * A 200 px welcome banner over a quiet video that moves for a few seconds and then rests rather
 * than looping (docs/decisions/035-the-banner-moves-then-rests.md), and stands still from the
 * start under reduced motion.
 */
export function WelcomeBanner({
  firstName,
  keptWhere,
}: {
  firstName: string;
  keptWhere: TKeptWhere;
}) {
  const prefersReducedMotion = usePrefersReducedMotion();
  // The poster is the page's largest picture and paints with it; the moving video is asked for
  // once the page is on screen, so it never competes with the page's own code.
  const isPainted = useAfterFirstPaint();

  return (
    <section className="relative isolate h-[200px] overflow-hidden rounded-xl bg-primary shadow-soft">
      {prefersReducedMotion ? (
        <img
          src={BANNER_MEDIA.poster}
          alt=""
          className="absolute inset-0 -z-10 size-full object-cover"
        />
      ) : (
        <video
          ref={isPainted ? keepMutedAndPlay : undefined}
          className="absolute inset-0 -z-10 size-full object-cover"
          poster={BANNER_MEDIA.poster}
          autoPlay
          muted
          playsInline
          preload="auto"
          aria-hidden="true"
          tabIndex={-1}
        >
          {isPainted && (
            <>
              <source src={BANNER_MEDIA.webm} type="video/webm" />
              <source src={BANNER_MEDIA.mp4} type="video/mp4" />
            </>
          )}
        </video>
      )}
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-gradient-to-r from-[#0d2725]/85 via-[#0d2725]/65 to-[#0d2725]/35"
      />
      <div className="flex h-full flex-col justify-center gap-2 px-6 text-white sm:px-10">
        <h1 className="text-3xl font-bold tracking-tight [text-shadow:0_1px_3px_rgb(0_0_0/0.45)] sm:text-4xl">
          Welcome, {firstName}
        </h1>
        <p className="max-w-xl text-lg text-white/95 [text-shadow:0_1px_2px_rgb(0_0_0/0.45)]">
          Your messages for the people you love, {KEPT_WHERE[keptWhere]}.
        </p>
      </div>
    </section>
  );
}

import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { Globe, HeartHandshake, Phone, Siren } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { releaseCookieBannerOnSupport } from '@web/features/cookie-consent/consent-store';
import { PageIntro } from '@web/features/public-site/page-intro';
import {
  DEFAULT_REGION,
  EMERGENCY_NUMBERS,
  EXTRA_RESOURCES,
  REGIONS,
  SERVICE_KIND_LABELS,
  toTelHref,
  type TRegionId,
  type TSupportService,
} from '@web/features/support/support-resources';
import { usePageTitle } from '@web/lib/use-page-title';

/**
 * Someone may open this page in distress: on a first visit the cookie banner waits until they
 * have scrolled past the emergency numbers (or leave the page).
 */
function useCookieBannerAfterScrollingPast(section: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = section.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry && !entry.isIntersecting && entry.boundingClientRect.bottom < 0) {
        releaseCookieBannerOnSupport();
        observer.disconnect();
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [section]);
}

function EmergencyNumbersCard() {
  const section = useRef<HTMLElement>(null);
  useCookieBannerAfterScrollingPast(section);
  return (
    <Card asChild className="border-2 border-destructive/40 bg-destructive-soft p-6 sm:p-8">
      <section ref={section} aria-labelledby="emergency-heading" className="flex flex-col gap-4">
        <h2
          id="emergency-heading"
          className="flex items-center gap-3 text-2xl font-bold tracking-tight"
        >
          <Siren className="size-7 shrink-0 text-destructive" aria-hidden="true" />
          Emergency numbers
        </h2>
        <p className="text-lg">
          If you or someone else is in immediate danger, call your local emergency number now.
        </p>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {EMERGENCY_NUMBERS.map(({ place, number }) => (
            <li key={place}>
              {/* The visible words are the link's name, so voice control finds it by what it says. */}
              <a
                href={toTelHref(number)}
                className="flex min-h-14 items-center justify-between gap-3 rounded-lg border-2 border-destructive/30 bg-card px-4 py-2 text-lg hover:bg-destructive-soft"
              >
                <span className="font-semibold">{place}</span>{' '}
                <span className="text-2xl font-bold tracking-wide text-destructive">
                  {number}
                  <span className="sr-only"> (call)</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}

function ServiceCard({ service }: { service: TSupportService }) {
  return (
    <li>
      <Card className="flex h-full flex-col gap-3 p-6">
        <p className="self-start rounded-full bg-primary-soft px-3 py-0.5 text-base font-semibold text-primary">
          {SERVICE_KIND_LABELS[service.kind]}
        </p>
        <h3 className="text-xl font-bold tracking-tight">{service.name}</h3>
        <p className="text-base font-semibold text-muted-foreground">{service.area}</p>
        <p className="text-lg">{service.description}</p>
        <div className="mt-auto flex flex-col gap-2 pt-2 sm:flex-row sm:flex-wrap sm:items-center">
          <Button asChild size="lg">
            <a href={toTelHref(service.phone)}>
              <Phone aria-hidden="true" />
              Call {service.phone}
              <span className="sr-only"> ({service.name})</span>
            </a>
          </Button>
          {service.website && (
            <Button asChild variant="link">
              <a href={service.website} target="_blank" rel="noopener noreferrer">
                Website<span className="sr-only"> of {service.name} (opens in a new tab)</span>
              </a>
            </Button>
          )}
        </div>
      </Card>
    </li>
  );
}

function RegionServices({ regionId }: { regionId: TRegionId }) {
  const region = REGIONS.find((candidate) => candidate.id === regionId) ?? REGIONS[0]!;
  return (
    <div className="flex flex-col gap-4" aria-live="polite">
      <h3 className="text-xl font-bold tracking-tight sm:text-2xl">Services in {region.label}</h3>
      {region.services.length > 0 ? (
        <ul className="grid gap-4 md:grid-cols-2">
          {region.services.map((service) => (
            <ServiceCard key={`${service.name}-${service.area}`} service={service} />
          ))}
        </ul>
      ) : (
        <p className="rounded-lg bg-muted p-5 text-lg">
          We have not yet been able to check services in {region.label} against the organisations’
          own published information, so we list none rather than risk a wrong number. In an
          emergency, call your local emergency number. Befrienders Worldwide, below, lists helplines
          in many countries.
        </p>
      )}
      {region.services.length > 0 && region.services.length < 3 && (
        <p className="text-base text-muted-foreground">
          We list only services we have checked. If yours is not here, Befrienders Worldwide, below,
          lists helplines in many countries.
        </p>
      )}
    </div>
  );
}

export default function SupportPage() {
  usePageTitle('Wellbeing and Support Resources');
  const [regionId, setRegionId] = useState<TRegionId>(DEFAULT_REGION);
  const selectId = useId();

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-8 sm:gap-10">
      <PageIntro eyebrow="Counselling & Support" title="Wellbeing and Support Resources">
        <p>
          Recording messages about your life, or watching one from someone you have lost, can bring
          up strong feelings. That is natural. Take your time, pause whenever you need to, and talk
          to someone you trust. If you would like to talk to someone outside your family, the
          services below are free and confidential.
        </p>
      </PageIntro>

      <EmergencyNumbersCard />

      <section aria-labelledby="services-heading" className="flex flex-col gap-5">
        <h2 id="services-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          Support services near you
        </h2>
        <div className="flex flex-col gap-2">
          <label htmlFor={selectId} className="flex items-center gap-2 text-lg font-semibold">
            <Globe className="size-5 text-primary" aria-hidden="true" />
            Your location
          </label>
          <select
            id={selectId}
            value={regionId}
            onChange={(event) => setRegionId(event.target.value as TRegionId)}
            className="min-h-13 w-full max-w-md cursor-pointer rounded-lg border-2 border-input bg-card px-4 text-lg"
          >
            {REGIONS.map((region) => (
              <option key={region.id} value={region.id}>
                {region.label}
              </option>
            ))}
          </select>
        </div>
        <RegionServices regionId={regionId} />
        <p className="text-base text-muted-foreground">
          Each number was checked on 23 November 2026 against the organisation’s own published
          information. Services sometimes change: if a number does not work, look on the
          organisation’s own website.
        </p>
      </section>

      <section aria-labelledby="extra-heading" className="flex flex-col gap-4">
        <h2
          id="extra-heading"
          className="flex items-center gap-3 text-2xl font-bold tracking-tight sm:text-3xl"
        >
          <HeartHandshake className="size-7 text-primary" aria-hidden="true" />
          More ways to find support
        </h2>
        <ul className="flex flex-col gap-4 text-lg">
          {EXTRA_RESOURCES.map((resource) => (
            <li key={resource.name} className="flex flex-col gap-1">
              <a
                href={resource.website}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex min-h-11 items-center self-start font-semibold text-primary underline underline-offset-4"
              >
                {resource.name}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
              <span>{resource.description}</span>
            </li>
          ))}
          <li>
            Your GP, a nurse or the staff at your care home can help too, and can refer you to local
            counselling.
          </li>
          <li>
            Questions about Memento itself? The{' '}
            <Link to="/faq" className="font-semibold text-primary underline underline-offset-4">
              Frequently Asked Questions
            </Link>{' '}
            explain how your videos are kept and what happens if you lose access.
          </li>
        </ul>
      </section>
    </div>
  );
}

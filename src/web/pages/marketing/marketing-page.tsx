import { useCallback, useEffect, useState } from 'react';
import { ChevronLeft, ChevronRight, Printer } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { SLIDES } from '@web/features/public-site/deck-slides';
import { usePageTitle } from '@web/lib/use-page-title';
import { cn } from '@web/lib/utils';

const SLIDE_COUNT = SLIDES.length;

/** Wraps around at both ends. */
function wrapIndex(index: number): number {
  return (index + SLIDE_COUNT) % SLIDE_COUNT;
}

/** Arrow keys turn the slides, unless the person is typing or a dialog is open. */
function isArrowKeyForDeck(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  const target = event.target as HTMLElement | null;
  if (target?.closest('input, textarea, select, [contenteditable="true"]')) return false;
  return !document.querySelector('[role="dialog"][data-state="open"]');
}

export default function MarketingPage() {
  usePageTitle('Memento for Care Homes');
  const [current, setCurrent] = useState(0);
  const goTo = useCallback((index: number) => setCurrent(wrapIndex(index)), []);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      if (!isArrowKeyForDeck(event)) return;
      event.preventDefault();
      setCurrent((index) => wrapIndex(index + (event.key === 'ArrowRight' ? 1 : -1)));
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-5" data-print-deck>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between print:hidden">
        <div className="flex flex-col gap-1">
          <p className="text-base font-semibold tracking-wide text-primary uppercase">
            Presentation
          </p>
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Memento for Care Homes</h1>
          <p className="text-lg text-muted-foreground">
            Move between slides with Previous and Next, the dots, or the arrow keys on a keyboard.
          </p>
        </div>
        <Button variant="outline" onClick={() => window.print()} className="self-start">
          <Printer aria-hidden="true" />
          Print / PDF
        </Button>
      </div>

      <section
        aria-roledescription="carousel"
        aria-label="Memento for care homes slides"
        className="flex flex-col gap-4"
      >
        <div>
          {SLIDES.map((slide, index) => (
            <section
              key={slide.id}
              role="group"
              aria-roledescription="slide"
              aria-labelledby={`slide-${slide.id}-title`}
              className={cn(
                'flex min-h-[28rem] flex-col gap-6 overflow-hidden rounded-xl border border-border bg-card p-6 shadow-soft sm:min-h-[30rem] sm:p-10',
                'print:min-h-0 print:break-inside-avoid print:rounded-none print:border-0 print:shadow-none',
                index !== current && 'hidden print:flex',
                index < SLIDE_COUNT - 1 && 'print:break-after-page',
                index === current && 'motion-safe:animate-fade-in',
                index === 0 && 'bg-gradient-to-br from-primary-soft via-card to-warm',
              )}
            >
              <p className="text-base font-semibold text-muted-foreground">
                Memento · {index + 1} / {SLIDE_COUNT}
              </p>
              <h2
                id={`slide-${slide.id}-title`}
                className={cn(
                  'font-bold tracking-tight text-primary',
                  index === 0 ? 'text-4xl sm:text-6xl' : 'text-3xl sm:text-4xl',
                )}
              >
                {slide.title}
              </h2>
              <div className="flex flex-1 flex-col justify-center">{slide.content}</div>
            </section>
          ))}
        </div>

        <div className="flex flex-col items-center gap-4 print:hidden">
          <p aria-live="polite" className="text-lg font-semibold" data-testid="slide-counter">
            Slide {current + 1} of {SLIDE_COUNT}
          </p>
          <ul className="flex flex-wrap items-center justify-center" aria-label="Choose a slide">
            {SLIDES.map((slide, index) => (
              <li key={slide.id}>
                <button
                  type="button"
                  onClick={() => goTo(index)}
                  aria-label={`Slide ${index + 1}: ${slide.title}`}
                  aria-current={index === current ? 'step' : undefined}
                  className="group flex size-[44px] cursor-pointer items-center justify-center rounded-full"
                >
                  <span
                    className={cn(
                      'block rounded-full transition-all',
                      index === current
                        ? 'size-4 bg-primary'
                        : 'size-3 bg-input group-hover:bg-primary/70',
                    )}
                  />
                </button>
              </li>
            ))}
          </ul>
          <div className="flex w-full flex-wrap items-center justify-between gap-3 sm:justify-center sm:gap-6">
            <Button variant="outline" size="lg" onClick={() => goTo(current - 1)}>
              <ChevronLeft aria-hidden="true" />
              Previous
            </Button>
            <Button size="lg" onClick={() => goTo(current + 1)}>
              Next
              <ChevronRight aria-hidden="true" />
            </Button>
          </div>
        </div>
      </section>
    </div>
  );
}

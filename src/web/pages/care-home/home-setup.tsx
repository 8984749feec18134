import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  ACCENT_MIN_CONTRAST,
  accentContrast,
  isAccentReadable,
  isHexColour,
  suggestReadableAccent,
} from '@shared/domain/contrast';
import { LOGO_MAX_BYTES, type TCareHome } from '@shared/schemas/care-homes';
import { FormErrorAlert } from '@web/components/form-parts';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { toast } from '@web/components/ui/use-toast';
import {
  CARE_HOME_KEY,
  removeLogo,
  saveCareHome,
  uploadLogo,
} from '@web/features/care-homes/care-homes-api';
import { describeError } from '@web/lib/api-client';
import { SectionHeading } from './section-heading';

/** The home's name, accent colour (checked at 7:1 as the server checks it) and logo. */
export function HomeSetup({ home }: { home: TCareHome | null }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(home?.name ?? '');
  const [accent, setAccent] = useState(home?.accentHex ?? '');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const colour = accent.trim().toLowerCase();
  const colourProblem =
    colour === ''
      ? null
      : !isHexColour(colour)
        ? 'Please choose a colour like #0f5e5a.'
        : !isAccentReadable(colour)
          ? `This colour is too light to read (${accentContrast(colour).toFixed(1)}:1; it needs ${ACCENT_MIN_CONTRAST}:1).`
          : null;
  const suggestion =
    isHexColour(colour) && !isAccentReadable(colour) ? suggestReadableAccent(colour) : null;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (colourProblem) return;
    setIsSaving(true);
    setError(null);
    try {
      await saveCareHome({ name, accentHex: colour === '' ? null : colour });
      await queryClient.invalidateQueries({ queryKey: CARE_HOME_KEY });
      toast({ title: home ? 'Care home saved' : 'Your care home is set up' });
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="home-setup-heading">
        <SectionHeading id="home-setup-heading" title={home ? home.name : 'Set up your care home'}>
          Your home&rsquo;s name, colour and logo appear on residents&rsquo; screens and on the
          letters and emails families receive, always with &lsquo;Powered by Memento&rsquo;.
        </SectionHeading>
        <CardContent className="flex flex-col gap-6">
          <form className="flex flex-col gap-5" onSubmit={onSubmit} noValidate>
            {error && <FormErrorAlert title="The care home could not be saved" message={error} />}
            <FormField
              label="Care home name"
              isRequired
              maxLength={60}
              value={name}
              onChange={(event) => setName(event.target.value)}
              autoComplete="organization"
            />
            <div className="flex flex-col gap-3">
              <FormField
                label="Accent colour (optional)"
                hint="A colour code like #0f5e5a. It must be dark enough to read: 7:1 against white."
                value={accent}
                onChange={(event) => setAccent(event.target.value)}
                error={colourProblem ?? undefined}
                spellCheck={false}
                maxLength={7}
              />
              {isHexColour(colour) && (
                <p className="flex items-center gap-3 text-base">
                  <span
                    aria-hidden="true"
                    className="inline-block size-10 rounded-lg border-2 border-border"
                    style={{ backgroundColor: colour }}
                  />
                  Contrast {accentContrast(colour).toFixed(1)}:1
                </p>
              )}
              {suggestion && (
                <Button
                  type="button"
                  variant="outline"
                  className="self-start"
                  onClick={() => setAccent(suggestion)}
                >
                  Use the darker shade {suggestion}
                </Button>
              )}
            </div>
            <Button type="submit" size="lg" className="self-start" disabled={isSaving}>
              {isSaving ? 'Saving…' : home ? 'Save details' : 'Set up care home'}
            </Button>
          </form>
          {home && <LogoField home={home} />}
        </CardContent>
      </section>
    </Card>
  );
}

function LogoField({ home }: { home: TCareHome }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function run(action: () => Promise<unknown>) {
    setIsBusy(true);
    setError(null);
    try {
      await action();
      await queryClient.invalidateQueries({ queryKey: CARE_HOME_KEY });
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsBusy(false);
    }
  }

  function onFile(file: File | undefined) {
    if (!file) return;
    if (file.size > LOGO_MAX_BYTES) {
      setError(
        `The logo must be at most ${LOGO_MAX_BYTES / 1024} KB. Please choose a smaller picture.`,
      );
      return;
    }
    void run(() => uploadLogo(file));
  }

  return (
    <div className="flex flex-col gap-3 border-t border-border pt-5">
      <h3 className="text-lg font-bold">Logo</h3>
      {error && <FormErrorAlert title="The logo could not be saved" message={error} />}
      {home.logoUrl ? (
        <img src={home.logoUrl} alt={`${home.name} logo`} className="h-12 w-auto self-start" />
      ) : (
        <p className="text-base text-muted-foreground">No logo yet.</p>
      )}
      <FormField
        label="Choose a logo (PNG or JPEG, up to 256 KB)"
        type="file"
        accept="image/png,image/jpeg"
        disabled={isBusy}
        onChange={(event) => onFile(event.target.files?.[0])}
      />
      {home.logoUrl && (
        <Button
          type="button"
          variant="ghost-destructive"
          className="self-start"
          disabled={isBusy}
          onClick={() => void run(removeLogo)}
        >
          Remove logo
        </Button>
      )}
    </div>
  );
}

import { useEffect, useRef, useState } from 'react';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { inspectLogoFile, LOGO_TYPES, removeStoredLogo, storedLogoPath, uploadBrandLogo } from './logo.ts';

interface LogoFieldProps {
  brandId: string;
  /** Prefix of the inputs' ids (two forms may be on one page). */
  idPrefix: string;
  value: string | null;
  onChange: (url: string | null) => void;
  /** A refusal to show (null clears it). */
  onProblem: (text: string | null) => void;
  /** True while a file is on its way (the form waits). */
  onBusy: (busy: boolean) => void;
  /** Each file stored by this field (useLogoUploads: what the form does not save is removed). */
  onUploaded?: (url: string) => void;
}

/**
 * A brand's logo in a form: upload a file (with progress) to the brand's folder of brand-logos, or give
 * an https address; a preview; remove with confirmation. The form's save writes the address.
 */
export function LogoField({
  brandId,
  idPrefix,
  value,
  onChange,
  onProblem,
  onBusy,
  onUploaded,
}: LogoFieldProps) {
  const [progress, setProgress] = useState<number | null>(null);
  const stored = storedLogoPath(value, brandId) !== null;
  const open = useRef(true);
  useEffect(() => {
    open.current = true;
    return () => {
      open.current = false;
    };
  }, []);

  async function pick(input: HTMLInputElement) {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const problem = await inspectLogoFile(file);
    if (problem) return onProblem(problem);
    onProblem(null);
    onBusy(true);
    setProgress(0);
    try {
      const url = await uploadBrandLogo(brandId, file, setProgress);
      if (!open.current) {
        // The form closed while the file was on its way: nothing will save it, and nothing shows it.
        void removeStoredLogo(url, brandId);
        return;
      }
      onUploaded?.(url);
      onChange(url);
    } catch (error) {
      onProblem(errorText(error));
    } finally {
      setProgress(null);
      onBusy(false);
    }
  }

  return (
    <div className="grid gap-3 rounded-md border p-3">
      <div className="flex flex-wrap items-center gap-3">
        {value ? (
          <img
            src={value}
            alt="Logo preview"
            className="size-16 rounded-lg bg-secondary object-contain"
            data-testid="logo-preview"
          />
        ) : (
          <p className="text-muted-foreground text-sm">No logo yet.</p>
        )}
        {value ? (
          <ConfirmButton
            size="sm"
            variant="outline"
            title="Remove the logo?"
            description="The brand shows its initial instead once you save."
            confirmLabel="Remove logo"
            destructive
            onConfirm={async () => onChange(null)}
          >
            Remove logo
          </ConfirmButton>
        ) : null}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-logo-file`}>Upload a logo (JPEG, PNG, WebP or GIF, at most 2 MB)</Label>
        <Input
          id={`${idPrefix}-logo-file`}
          type="file"
          accept={LOGO_TYPES.join(',')}
          disabled={progress !== null}
          onChange={(event) => void pick(event.currentTarget)}
        />
        {progress !== null ? (
          <Progress value={Math.round(progress * 100)} aria-label="Logo upload progress" />
        ) : null}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-logo`}>Or a logo address (https://…)</Label>
        <Input
          id={`${idPrefix}-logo`}
          inputMode="url"
          value={stored ? '' : (value ?? '')}
          placeholder={stored ? 'Uploaded file' : undefined}
          onChange={(event) => onChange(event.target.value.trim() === '' ? null : event.target.value)}
        />
      </div>
    </div>
  );
}

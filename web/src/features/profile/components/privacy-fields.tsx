import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import type { FieldProps } from '#web/lib/use-form.ts';
import { type PrivacySwitches, VISIBILITY_OPTIONS } from '../privacy-settings.ts';

/** One on/off setting: its label and what it does, and the switch (named by the label). */
export function SettingSwitch(props: {
  id: keyof PrivacySwitches;
  label: string;
  description: string;
  switches: PrivacySwitches;
  onChange: (patch: Partial<PrivacySwitches>) => void;
}) {
  const descriptionId = `${props.id}-description`;
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="grid gap-1">
        <Label htmlFor={props.id}>{props.label}</Label>
        <p id={descriptionId} className="text-muted-foreground text-sm">
          {props.description}
        </p>
      </div>
      <Switch
        id={props.id}
        checked={props.switches[props.id]}
        aria-describedby={descriptionId}
        onCheckedChange={(checked) => props.onChange({ [props.id]: checked })}
      />
    </div>
  );
}

/** A card of the privacy settings: its title, what it is about, its settings. */
export function SectionCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">{children}</CardContent>
    </Card>
  );
}

/**
 * Who sees the profile: one radio a visibility, each with what it means. A refused choice is said under
 * the group, and the chosen radio is marked (the keyboard goes there).
 */
export function VisibilityChoice({ field }: { field: FieldProps }) {
  const errorId = 'profile-visibility-error';
  return (
    <div className="grid gap-2">
      <RadioGroup
        aria-label="Profile visibility"
        name={field.name}
        value={field.value}
        onValueChange={(value) => field.onChange({ target: { value } })}
      >
        {VISIBILITY_OPTIONS.map((option) => (
          <div key={option.value} className="flex items-start gap-3">
            <RadioGroupItem
              id={`visibility-${option.value}`}
              value={option.value}
              aria-describedby={`visibility-${option.value}-description${field.error ? ` ${errorId}` : ''}`}
              aria-invalid={field.error && option.value === field.value ? true : undefined}
              className="mt-0.5"
            />
            <div className="grid gap-1">
              <Label htmlFor={`visibility-${option.value}`}>{option.label}</Label>
              <p id={`visibility-${option.value}-description`} className="text-muted-foreground text-sm">
                {option.description}
                {option.hint ? (
                  <>
                    .<span className="block font-medium text-foreground">{option.hint}</span>
                  </>
                ) : null}
              </p>
            </div>
          </div>
        ))}
      </RadioGroup>
      <FieldError id={errorId} error={field.error} />
    </div>
  );
}

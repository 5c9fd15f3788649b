import { useState } from 'react';
import { InputField } from '#web/components/ui/form-field.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { errorText } from '#web/lib/error-text.ts';
import type { Form } from '#web/lib/use-form.ts';
import { IMAGE_TYPES, imageProblem, type ProductValues } from './admin-product.ts';
import { uploadProductImage } from './api/upload-product-image.ts';

type ProductForm = Form<ProductValues, never>;

/** A percentage range (THC or CBD) as two number fields, "from" and "to". */
export function RangeFields({
  form,
  label,
  min,
  max,
}: {
  form: ProductForm;
  label: string;
  min: 'thcMin' | 'cbdMin';
  max: 'thcMax' | 'cbdMax';
}) {
  const from = form.field(min);
  return (
    <div className="grid grid-cols-2 gap-2">
      <InputField
        id={`product-${from.name}`}
        label={`${label} from (%)`}
        type="number"
        min={0}
        max={100}
        step={0.1}
        {...from}
        onChange={(event) => {
          from.onChange(event);
          // The order rule concerns both ends of the range: changing "from" clears it at "to" too.
          form.clearError(max);
        }}
      />
      <InputField
        id={`product-${form.field(max).name}`}
        label={`${label} to (%)`}
        type="number"
        min={0}
        max={100}
        step={0.1}
        {...form.field(max)}
      />
    </div>
  );
}

/**
 * The image: picked, checked, uploaded with progress, then previewed; its address is the form's
 * `imageUrl`. A refused pick or upload is said through `onProblem`.
 */
export function ImageField({
  form,
  onProblem,
  onUploading,
}: {
  form: ProductForm;
  onProblem: (problem: string | null) => void;
  onUploading: (uploading: boolean) => void;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const image = form.field('imageUrl');

  async function pick(file: File | undefined) {
    if (!file) return;
    const problem = imageProblem(file);
    onProblem(problem);
    if (problem) return;
    setProgress(0);
    onUploading(true);
    try {
      image.onChange({ target: { value: await uploadProductImage(file, setProgress) } });
    } catch (error) {
      onProblem(errorText(error));
    } finally {
      setProgress(null);
      onUploading(false);
    }
  }

  return (
    <div className="grid gap-2">
      <InputField
        id="product-image"
        label="Image (JPEG, PNG, WebP or GIF, at most 5 MB)"
        type="file"
        accept={IMAGE_TYPES.join(',')}
        error={image.error}
        onChange={(event) => void pick(event.target.files?.[0])}
      />
      {progress !== null ? (
        <Progress value={Math.round(progress * 100)} aria-label="Upload progress" />
      ) : null}
      {image.value ? (
        <img
          src={image.value}
          alt=""
          className="h-24 w-24 rounded-md object-cover"
          data-testid="product-image-preview"
        />
      ) : null}
    </div>
  );
}

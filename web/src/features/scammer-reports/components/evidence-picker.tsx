import { Paperclip, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { addEvidence, EVIDENCE_ACCEPT, EVIDENCE_MAX_FILES } from '../evidence.ts';

/**
 * The report's evidence files (decision 141): up to EVIDENCE_MAX_FILES, each checked as it is added;
 * while they upload, each file's progress instead of its Remove button.
 */
export function EvidencePicker({
  files,
  onChange,
  progress,
}: {
  files: File[];
  onChange: (files: File[]) => void;
  /** Each file's upload progress, 0 to 1; null before the upload. */
  progress: number[] | null;
}) {
  const evidenceId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <fieldset className="grid gap-2" aria-describedby={`${evidenceId}-hint`}>
      <legend className="font-medium text-sm">Evidence (optional)</legend>
      <p id={`${evidenceId}-hint`} className="text-muted-foreground text-xs">
        Up to {EVIDENCE_MAX_FILES} screenshots, photos or PDFs (JPEG, PNG, WebP, GIF, PDF; 5 MB each). Only
        reviewers see them until they approve each file for readers.
      </p>
      {files.length < EVIDENCE_MAX_FILES && progress === null ? (
        <label
          htmlFor={`${evidenceId}-input`}
          className="inline-flex w-fit cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm hover:bg-accent focus-within:ring-2 focus-within:ring-ring"
        >
          <Paperclip aria-hidden="true" className="size-4" />
          Add files
          <input
            id={`${evidenceId}-input`}
            type="file"
            multiple
            accept={EVIDENCE_ACCEPT}
            className="sr-only"
            onChange={(event) => {
              const picked = Array.from(event.target.files ?? []);
              event.target.value = '';
              const next = addEvidence(files, picked);
              onChange(next.files);
              setProblem(next.problem);
            }}
          />
        </label>
      ) : null}
      {problem ? (
        <p role="alert" className="text-destructive text-sm dark:text-red-400">
          {problem}
        </p>
      ) : null}
      {files.length > 0 ? (
        <ul className="grid gap-2" aria-label="Evidence files">
          {files.map((file, index) => (
            <li
              key={`${file.name}-${file.size}-${file.lastModified}`}
              className="grid gap-1 rounded-md border p-2 text-sm"
            >
              <div className="flex items-center justify-between gap-2">
                <span className="min-w-0 truncate">{file.name}</span>
                {progress === null ? (
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${file.name}`}
                    onClick={() => onChange(files.filter((_, i) => i !== index))}
                  >
                    <X aria-hidden="true" />
                  </Button>
                ) : null}
              </div>
              {progress !== null ? (
                <Progress
                  value={Math.round((progress[index] ?? 0) * 100)}
                  aria-label={`Uploading ${file.name}`}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}

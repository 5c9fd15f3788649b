import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from './alert-dialog.tsx';
import { Button, type ButtonProps } from './button.tsx';

interface ConfirmButtonProps {
  /** The button that opens the confirmation. */
  children: ReactNode;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  disabled?: boolean;
  title: string;
  description: ReactNode;
  /** The confirming button's label (defaults to the trigger's text when that is a string). */
  confirmLabel: string;
  destructive?: boolean;
  /** Runs on confirmation; the dialog stays open (buttons disabled) until it settles, then closes. */
  onConfirm: () => Promise<unknown>;
}

/** A button that asks before it acts (destructive and consequential admin actions). */
export function ConfirmButton({
  children,
  variant,
  size,
  disabled,
  title,
  description,
  confirmLabel,
  destructive = false,
  onConfirm,
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialogPrimitive.Trigger asChild>
        <Button variant={variant} size={size} disabled={disabled}>
          {children}
        </Button>
      </AlertDialogPrimitive.Trigger>
      <AlertDialogContent>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>{description}</AlertDialogDescription>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <AlertDialogPrimitive.Cancel asChild>
            <Button variant="outline" disabled={busy}>
              Cancel
            </Button>
          </AlertDialogPrimitive.Cancel>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            disabled={busy}
            onClick={() => void confirm()}
          >
            {busy ? 'Working…' : confirmLabel}
          </Button>
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}

import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast.tsx';
import { useToast } from './use-toast.ts';

/** Renders the queued toasts; mount once near the root. */
export default function Toaster() {
  const { toasts, dismiss } = useToast();
  return (
    <ToastProvider duration={5000} swipeDirection="right">
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <Toast
          key={id}
          open={open}
          variant={variant}
          duration={duration}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(next) => {
            if (!next) dismiss(id);
          }}
        >
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ))}
      {/*
        aria-live="off" is the list's default; stated, it makes a modal dialog opened later keep the
        toasts exposed (Radix hides the rest of the page with the aria-hidden package, which leaves
        elements carrying aria-live alone).
      */}
      <ToastViewport aria-live="off" />
    </ToastProvider>
  );
}

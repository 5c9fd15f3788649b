import { Moon, Sun } from 'lucide-react';
import { useTheme } from '#web/lib/theme.ts';
import { cn } from '#web/lib/utils.ts';
import { Button } from '../ui/button.tsx';

export function ThemeToggle({ className, withLabel = false }: { className?: string; withLabel?: boolean }) {
  const { theme, setTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = next === 'dark' ? 'Switch to dark theme' : 'Switch to light theme';
  return (
    <Button
      variant="ghost"
      size={withLabel ? 'default' : 'icon'}
      className={cn(withLabel && 'h-auto w-full justify-start gap-3 px-3 py-2.5 text-base', className)}
      aria-label={withLabel ? undefined : label}
      title={label}
      onClick={() => setTheme(next)}
    >
      {theme === 'dark' ? (
        <Sun aria-hidden="true" className={withLabel ? 'size-5' : undefined} />
      ) : (
        <Moon aria-hidden="true" className={withLabel ? 'size-5' : undefined} />
      )}
      {withLabel ? label : null}
    </Button>
  );
}

import { UserRound } from 'lucide-react';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { whenIdle } from '#web/lib/when-idle.ts';
import { Button } from '../ui/button.tsx';
import { emailLocalPart, type NavUser } from './nav-items.ts';
import type { UserMenuProps } from './user-menu.tsx';

const loadUserMenu = () => import('./user-menu.tsx');

const triggerClass = 'hidden max-w-48 md:inline-flex';

/**
 * The member's menu button (product §navigation: labelled with the part of the email before the at-sign). The
 * first render shows the button alone; the dropdown machinery (about 30 KB) loads when the browser is
 * idle, or at once when the button is used, and then takes the button's place — keeping the focus,
 * and opening if the button was pressed meanwhile.
 */
export function AccountMenu({ user, onSignOut }: { user: NavUser; onSignOut: () => void }) {
  const [Menu, setMenu] = useState<ComponentType<UserMenuProps> | null>(null);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const [focusOnLoad, setFocusOnLoad] = useState(false);
  const placeholder = useRef<HTMLButtonElement>(null);

  const load = () => {
    loadUserMenu()
      .then((module) => {
        setFocusOnLoad(document.activeElement === placeholder.current && placeholder.current !== null);
        setMenu(() => module.default);
      })
      .catch(() => {
        // Offline: the button stays, and tries again when pressed.
      });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: load once, when the browser is idle.
  useEffect(() => whenIdle(load), []);

  if (Menu) {
    return <Menu user={user} onSignOut={onSignOut} defaultOpen={openOnLoad} autoFocus={focusOnLoad} />;
  }
  return (
    <Button
      ref={placeholder}
      variant="outline"
      className={triggerClass}
      aria-haspopup="menu"
      aria-expanded={false}
      // On pointer down, as the menu itself opens: the menu's code may take this button's place between
      // the press and the click (it loads when the browser is idle), and the press must still open it.
      onPointerDown={(event) => {
        if (event.button !== 0 || event.ctrlKey) return;
        setOpenOnLoad(true);
        load();
      }}
      onClick={() => {
        setOpenOnLoad(true);
        load();
      }}
    >
      <UserRound aria-hidden="true" />
      <span className="truncate">{emailLocalPart(user.email)}</span>
    </Button>
  );
}

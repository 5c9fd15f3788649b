import { LogOut, Shield, UserRound } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu.tsx';
import { emailLocalPart, type NavUser } from './nav-items.ts';

export interface UserMenuProps {
  user: NavUser;
  onSignOut: () => void;
  /** Open at once (the button was pressed before this module had loaded). */
  defaultOpen?: boolean;
  /** Take the focus (the button it replaces had it). */
  autoFocus?: boolean;
}

/** The signed-in member's menu (desktop): labelled with the part of the email before the at-sign. */
export default function UserMenu({ user, onSignOut, defaultOpen, autoFocus }: UserMenuProps) {
  const navigate = useNavigate();
  const trigger = useRef<HTMLButtonElement>(null);
  // Only when it mounts closed: a menu mounting open puts the focus in its own content, and moving it
  // back to the button would count as focus leaving the menu, which closes it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when mounted.
  useEffect(() => {
    if (autoFocus && !defaultOpen) trigger.current?.focus();
  }, []);
  return (
    // Not modal: a modal menu hides the rest of the page from assistive technology (aria-hidden) while
    // it stays focusable, which axe rightly reports; a menu needs no focus trap.
    <DropdownMenu defaultOpen={defaultOpen} modal={false}>
      <DropdownMenuTrigger asChild>
        <Button ref={trigger} variant="outline" className="hidden max-w-48 md:inline-flex">
          <UserRound aria-hidden="true" />
          <span className="truncate">{emailLocalPart(user.email)}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent inPlace>
        <DropdownMenuLabel className="truncate font-normal text-muted-foreground">
          {user.email}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate('/profile')}>
          <UserRound aria-hidden="true" />
          Profile Settings
        </DropdownMenuItem>
        {user.isAdmin ? (
          <DropdownMenuItem onSelect={() => navigate('/admin')}>
            <Shield aria-hidden="true" />
            Admin Panel
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onSignOut}>
          <LogOut aria-hidden="true" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

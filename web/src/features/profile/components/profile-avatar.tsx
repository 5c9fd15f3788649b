import { cn } from '#web/lib/utils.ts';
import { initialsOf, type Profile } from '../profile-data.ts';

/** The avatar: the picture, else initials, else ? (product §avatar). */
export function ProfileAvatar({ profile, className }: { profile: Profile | null; className?: string }) {
  const label = profile?.username ? `@${profile.username}` : 'your profile';
  if (profile?.avatar_url) {
    return (
      <img
        src={profile.avatar_url}
        alt={`Avatar of ${label}`}
        className={cn('size-24 rounded-full border object-cover', className)}
      />
    );
  }
  return (
    <div
      role="img"
      aria-label={`Initials of ${label}`}
      className={cn(
        'flex size-24 items-center justify-center rounded-full border bg-secondary font-bold text-2xl text-primary',
        className,
      )}
    >
      {initialsOf(profile)}
    </div>
  );
}

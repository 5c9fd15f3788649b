/**
 * A package loaded on first use rather than at start-up. For packages only some requests need
 * (password hashing, MFA enrolment, social sign-in, SMTP, uploads): importing them with the rest of
 * the server would add their loading time to every start (decision 086). The import runs once; later
 * calls share it.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}

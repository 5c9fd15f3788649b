/**
 * A package loaded on first use rather than at start-up. For packages only some requests need
 * (password hashing, MFA enrolment, social sign-in, SMTP, uploads): importing them with the rest of
 * the server would add their loading time to every start (decision 086). The import runs once; later
 * calls share it. A failed import is not kept: the calls waiting on it get its error, and the next call
 * tries again, so a transient failure does not last for the life of the process.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

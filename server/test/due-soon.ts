const ALREADY_PAST = /must be in the future/;

/**
 * Creates something due `ms` from now. A loaded machine can take longer than `ms` to answer, and
 * the server then finds the time already past: it is moved further ahead and tried again.
 */
export async function dueSoon<T>(create: (at: string) => Promise<T>, ms = 400): Promise<T> {
  for (let ahead = ms; ; ahead *= 2) {
    try {
      return await create(new Date(Date.now() + ahead).toISOString());
    } catch (error) {
      const past = error instanceof Error && ALREADY_PAST.test(error.message);
      if (!past || ahead >= 60_000) throw error;
    }
  }
}

/**
 * True when Testcontainers finds a working container runtime. Never throws and never waits long:
 * on machines without a Docker engine (CI here) it must fall through to the native stack quickly.
 * Testcontainers is imported lazily so that machines without Docker never load it.
 */
export async function dockerAvailable(timeoutMs = 5_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    const probe = getContainerRuntimeClient().then(
      () => true,
      () => false,
    );
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    return await Promise.race([probe, timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

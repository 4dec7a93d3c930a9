/**
 * Loads an optional database driver (a peer dependency) when a store is opened, never at import.
 * @internal
 */
import { StoreError } from './errors';

/** A driver package a store may load. */
export interface DriverPackage {
  /** The package name, e.g. `better-sqlite3`. */
  readonly name: string;
  /** What to install, e.g. `better-sqlite3@12`. */
  readonly install: string;
}

function isMissing(err: unknown, name: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  // Only the driver itself missing: a dependency of the driver missing is a broken install (LOAD).
  return typeof message === 'string' && (message.includes(`'${name}'`) || message.includes(`"${name}"`));
}

/**
 * Runs `load` (a literal `require` of the driver in the store's own file) and classifies its failure.
 * @throws StoreError ERR_STORE_DRIVER_MISSING when the package is not installed (the message gives
 *   the install command); ERR_STORE_DRIVER_LOAD when it is installed but fails to load
 */
export function loadDriver<T>(store: string, driver: DriverPackage, load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (isMissing(err, driver.name)) {
      throw new StoreError(
        'ERR_STORE_DRIVER_MISSING',
        `${store}: the database driver "${driver.name}" is not installed; it is an optional peer ` +
          `dependency of scope-tool: run \`npm install ${driver.install}\``,
        err,
      );
    }
    const detail = err instanceof Error ? err.message : String(err);
    throw new StoreError(
      'ERR_STORE_DRIVER_LOAD',
      `${store}: the database driver "${driver.name}" is installed but failed to load (${detail}); ` +
        `reinstall it for this Node.js version: \`npm rebuild ${driver.name}\` or \`npm install ${driver.install}\``,
      err,
    );
  }
}

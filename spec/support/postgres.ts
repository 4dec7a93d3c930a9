/**
 * Starts a throwaway PostgreSQL server for the PostgresStore spec and the bench: `initdb` in a
 * fresh temporary folder (trust auth, user `postgres`, no fsync), `pg_ctl start` on a free
 * loopback port with its socket in that folder, and stops it (`pg_ctl stop -m immediate`) and
 * removes the folder after. As root (initdb refuses root) the server runs as the `postgres` user,
 * or `nobody`, through runuser. A watchdog process stops the server if this process dies without
 * stopping it (killed by a signal), so no server outlives the run.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** The Debian package that ships initdb and pg_ctl. */
export const POSTGRES_PACKAGE = 'postgresql-15';

/** A running throwaway server. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  readonly connectionString: string;
  readonly port: number;
  /** Stops the server (immediate mode) and removes its folder. Idempotent. */
  stop(): void;
}

/**
 * Finds the folder holding initdb and pg_ctl: PATH first, then /usr/lib/postgresql/<version>/bin
 * (newest version first).
 * @throws Error naming the Debian package to install when none has both
 */
export function findPostgresBin(searchPath = process.env.PATH ?? '', root = '/usr/lib/postgresql'): string {
  const candidates = searchPath.split(path.delimiter).filter((dir) => dir !== '');
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(root, v, 'bin')));
  }
  const usable = (dir: string) =>
    ['initdb', 'pg_ctl'].every((tool) => {
      try {
        fs.accessSync(path.join(dir, tool), fs.constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  const found = candidates.find(usable);
  if (found === undefined) {
    throw new Error(
      `PostgreSQL server binaries (initdb, pg_ctl) not found in PATH or ${root}/<version>/bin; ` +
        `install the Debian package ${POSTGRES_PACKAGE}: apt-get install -y ${POSTGRES_PACKAGE}`,
    );
  }
  return found;
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The unprivileged user to run as when this process is root, and how to run a command as them. */
function runAs(): { user?: { name: string; uid: number; gid: number } } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  for (const name of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (id.status === 0 && gid.status === 0) {
      return { user: { name, uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) } };
    }
  }
  throw new Error('running as root, and neither the postgres nor the nobody user exists to run initdb as');
}

function command(bin: string, tool: string, args: string[], user?: { name: string }): [string, string[]] {
  const exe = path.join(bin, tool);
  return user === undefined ? [exe, args] : ['runuser', ['-u', user.name, '--', exe, ...args]];
}

/**
 * Starts a fresh server. Call `stop()` when done (afterAll); it also runs on process exit.
 * @throws Error naming the Debian package when the binaries are missing, or with the server log
 *   when initdb or the start fails
 */
export async function startPostgres(options: { readonly maxConnections?: number } = {}): Promise<TestPostgres> {
  const bin = findPostgresBin();
  const { user } = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-tool-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  if (user !== undefined) fs.chownSync(dir, user.uid, user.gid);
  fs.chmodSync(dir, 0o700);
  const run = (tool: string, args: string[]) => {
    const [exe, argv] = command(bin, tool, args, user);
    return spawnSync(exe, argv, { encoding: 'utf8', cwd: dir, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
  };
  let stopped = false;
  let watchdog: ReturnType<typeof spawn> | undefined;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', stop);
    if (fs.existsSync(path.join(data, 'postmaster.pid'))) {
      run('pg_ctl', ['-D', data, 'stop', '-m', 'immediate', '-w', '-t', '30']);
    }
    if (watchdog?.pid !== undefined) {
      try {
        process.kill(watchdog.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', stop);
  try {
    const init = run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
    if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const settings = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        `-c max_connections=${options.maxConnections ?? 200}`,
      ].join(' ');
      const start = run('pg_ctl', ['-D', data, '-l', log, '-o', settings, '-w', '-t', '60', 'start']);
      if (start.status === 0) {
        watchdog = startWatchdog(bin, data, dir, user);
        return { connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop };
      }
      const serverLog = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
      // Another process may have taken the port between freePort and start: try another.
      if (attempt >= 3 || !/could not bind|Address already in use/.test(serverLog)) {
        throw new Error(`pg_ctl start failed (${start.status}): ${start.stderr}\n${serverLog}`);
      }
    }
  } catch (err) {
    stop();
    throw err;
  }
}

/**
 * A detached shell that waits for this process to end, then stops the server and removes its
 * folder: the net under a test process killed by a signal, where no exit handler runs.
 */
function startWatchdog(bin: string, data: string, dir: string, user?: { name: string }) {
  const [exe, argv] = command(bin, 'pg_ctl', ['-D', data, 'stop', '-m', 'immediate'], user);
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const script =
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ` +
    `${[exe, ...argv].map(quote).join(' ')} >/dev/null 2>&1; rm -rf ${quote(dir)}`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}

import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { migrateDatabase } from "../../src/server/store/postgres/migrate.ts";
import { describeUnless } from "./describe-unless.ts";
import { runToEnd } from "./run-to-end.ts";
import { readRunRecord, startOncePerRun } from "./start-once-per-run.ts";

/** Where Debian installs each major version of PostgreSQL. */
const debianRoot = "/usr/lib/postgresql";

/** The newest PostgreSQL Debian installed (15 on this image); PG_BIN points elsewhere. */
export const postgresBinDirectory =
  process.env.PG_BIN ??
  (existsSync(debianRoot)
    ? readdirSync(debianRoot)
        .filter((version) => /^\d+$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => path.join(debianRoot, version, "bin"))
        .find((bin) => existsSync(path.join(bin, "initdb")))
    : undefined) ??
  path.join(debianRoot, "15", "bin");

/**
 * Why the PostgreSQL tests cannot run here, or undefined when they can. Only a developer machine
 * without PostgreSQL skips them; in CI (CI set) a missing PostgreSQL fails them instead.
 */
export const postgresSkipReason: string | undefined =
  existsSync(path.join(postgresBinDirectory, "initdb")) || process.env.CI
    ? undefined
    : `PostgreSQL is not installed in ${postgresBinDirectory}; install Debian's postgresql or set PG_BIN`;

/** `describe` for tests that need PostgreSQL: skipped, with the reason in its name, when there is none. */
export function describeWithPostgres(name: string, tests: () => void): void {
  describeUnless(postgresSkipReason, name, tests);
}

export interface TestPostgres {
  /** A new, empty database on the server; its `postgres://` URL. */
  createDatabase(): Promise<string>;
  /**
   * A new database with every migration applied: a file copy of one migrated once per process,
   * some 150 ms less than an empty database migrated anew.
   */
  createMigratedDatabase(): Promise<string>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** initdb refuses to run as root: root runs the server's commands as the `postgres` user. */
async function runAsServerUser(command: string, args: string[]): Promise<void> {
  const binary = path.join(postgresBinDirectory, command);
  const asRoot = userInfo().uid === 0;
  const run = asRoot
    ? await runToEnd("runuser", ["-u", "postgres", "--", binary, ...args], { cwd: "/", env: process.env })
    : await runToEnd(binary, args, { cwd: tmpdir(), env: process.env });
  if (run.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${run.status}):\n${run.stdout}${run.stderr}`);
  }
}

let databases = 0;

/** Where a started server lives: enough for any process of the run to use it, and to stop it. */
interface ServerPlace {
  directory: string;
  data: string;
  port: number;
}

/** A server's databases, each new one named after this process. */
function databasesOn({ port }: ServerPlace): TestPostgres {
  const url = (database: string) => `postgres://payreq@127.0.0.1:${port}/${database}`;
  const create = async (options: string) => {
    const name = `payreq_test_${process.pid}_${++databases}`;
    const admin = new pg.Client({ connectionString: url("postgres") });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} ${options}`);
    } finally {
      await admin.end();
    }
    return name;
  };
  let migratedTemplate: Promise<string> | undefined;
  return {
    createDatabase: async () => url(await create("")),
    async createMigratedDatabase() {
      migratedTemplate ??= create("").then(async (name) => {
        await migrateDatabase(url(name));
        return name;
      });
      // FILE_COPY copies the template's files instead of logging each page: some 30 ms here, against 130-180.
      return url(await create(`TEMPLATE ${await migratedTemplate} STRATEGY FILE_COPY`));
    },
  };
}

/** Stops a server at once and removes its files. */
async function stopServer({ directory, data }: ServerPlace): Promise<void> {
  await runAsServerUser("pg_ctl", ["-D", data, "-m", "immediate", "stop"]).catch(() => {});
  rmSync(directory, { recursive: true, force: true });
}

/**
 * Starts a throwaway PostgreSQL server: `initdb` and `pg_ctl` into a temporary directory, on a
 * free port of 127.0.0.1, trusting local connections, without fsync (nothing here must survive
 * the machine). About two seconds.
 */
async function startServer(): Promise<ServerPlace> {
  const directory = mkdtempSync(path.join(tmpdir(), "payreq-pg-"));
  if (userInfo().uid === 0) {
    const { uid, gid } = await serverUserIds();
    chownSync(directory, uid, gid);
  }
  const data = path.join(directory, "data");
  const port = await freePort();
  await runAsServerUser("initdb", ["-D", data, "-A", "trust", "-U", "payreq", "--no-sync", "-E", "UTF8"]);
  await runAsServerUser("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(directory, "server.log"),
    "-o",
    `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
    "-w",
    "start",
  ]);
  return { directory, data, port };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder where the run's shared PostgreSQL server is recorded (test/support/postgres-global-setup.ts). */
    sharedPostgresFolder: string;
  }
}

const patienceMs = 90_000;
let shared: Promise<TestPostgres> | undefined;

/**
 * The PostgreSQL server that all test files of this run share, each test on databases of its
 * own: initdb is the slow part, so the first file that asks starts it, the others wait for it,
 * and the run's global teardown stops it.
 */
export function sharedPostgres(): Promise<TestPostgres> {
  shared ??= startOncePerRun<ServerPlace>(
    inject("sharedPostgresFolder"),
    "PostgreSQL",
    startServer,
    patienceMs,
  ).then(databasesOn);
  return shared;
}

/** Stops the shared server recorded in `folder`, if a test file started one, and removes the folder. */
export async function stopSharedPostgres(folder: string): Promise<void> {
  const place = readRunRecord<ServerPlace>(folder);
  if (place) await stopServer(place);
  rmSync(folder, { recursive: true, force: true });
}

async function serverUserIds(): Promise<{ uid: number; gid: number }> {
  const run = await runToEnd("id", ["-u", "postgres"], { cwd: "/", env: process.env });
  const group = await runToEnd("id", ["-g", "postgres"], { cwd: "/", env: process.env });
  if (run.status !== 0 || group.status !== 0) {
    throw new Error("running as root, but there is no postgres user to run PostgreSQL as");
  }
  return { uid: Number(run.stdout.trim()), gid: Number(group.stdout.trim()) };
}

import { execFileSync } from "node:child_process";

/** npm and Node quiet and offline: a consumer project installs from the cache `npm ci` filled. */
export const quietEnv = {
  ...process.env,
  NO_COLOR: "1",
  npm_config_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

/** The npm cache `npm ci` filled: npm names it to the scripts it runs; run otherwise, npm is asked. */
export function sharedNpmCache(): string {
  return (
    process.env.npm_config_cache ??
    execFileSync("npm", ["config", "get", "cache"], { env: quietEnv, encoding: "utf8" }).trim()
  );
}

/** A consumer project's strict settings, without @types/node, declaration files checked too. */
export const consumerCompilerOptions = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2022", "DOM"],
  types: [],
  strict: true,
  skipLibCheck: false,
  outDir: "out",
};

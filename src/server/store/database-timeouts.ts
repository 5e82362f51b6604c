/**
 * How long the PostgreSQL store waits for the database unless told otherwise: the defaults of the
 * configuration's `databaseConnectTimeoutMs`, `databaseStatementTimeoutMs` and `databaseLockTimeoutMs`.
 */
export const defaultDatabaseTimeouts = {
  connectTimeoutMs: 5000,
  statementTimeoutMs: 5000,
  lockTimeoutMs: 2000,
} as const;

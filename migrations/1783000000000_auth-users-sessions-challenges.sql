-- Up Migration

-- Auth API users: each signs in by email and password or by wallet (`login`, unique, lower
-- case), and acts for a sandbox account of its own.
CREATE TABLE users (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  login text NOT NULL,
  record jsonb NOT NULL
);
CREATE UNIQUE INDEX users_login ON users (login);

-- Signed-in sessions, by the SHA-256 of their token: the token itself is never stored.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

-- Wallet sign-in challenges (EIP-4361 messages), each used at most once.
CREATE TABLE wallet_challenges (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

-- Down Migration

DROP TABLE wallet_challenges;
DROP TABLE sessions;
DROP TABLE users;

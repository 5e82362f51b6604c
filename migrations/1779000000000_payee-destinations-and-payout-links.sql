-- Up Migration

-- Payee destinations of each account, by the canonical destination id. A wallet has at most one
-- active destination per account (addresses in lower case): registering another deactivates the
-- first in the same transaction.
CREATE TABLE payee_destinations (
  account_id text NOT NULL,
  destination_id text NOT NULL,
  position bigserial NOT NULL,
  wallet_address text NOT NULL,
  active boolean NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (account_id, destination_id)
);
CREATE UNIQUE INDEX payee_destinations_active_wallet ON payee_destinations (account_id, wallet_address)
  WHERE active;

-- Signing sessions: the typed data a nonce lets a wallet sign, used at most once.
CREATE TABLE payee_destination_nonces (
  nonce text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

-- Secure payments now say whether the account is paid or pays (payout links); every link made
-- before this migration was one the account is paid through.
UPDATE secure_payments SET record = record || '{"kind": "incoming"}'::jsonb WHERE NOT record ? 'kind';

-- Down Migration

-- The links keep their kind: a record's unknown fields are carried, never read, by older code.
DROP TABLE payee_destination_nonces;
DROP TABLE payee_destinations;

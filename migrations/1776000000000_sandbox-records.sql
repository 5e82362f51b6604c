-- Up Migration

-- One table per record type: the record as JSONB, beside the columns its lookups and lists read.
-- `position` is the insertion order lists answer in; replacing a record keeps it.

CREATE TABLE requests (
  request_id text PRIMARY KEY,
  position bigserial NOT NULL,
  payment_reference text NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX requests_payment_reference ON requests (payment_reference, position);

CREATE TABLE secure_payments (
  token text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

CREATE TABLE recurring_payments (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

CREATE TABLE payers (
  account_id text NOT NULL,
  client_user_id text NOT NULL,
  position bigserial NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (account_id, client_user_id)
);

CREATE TABLE payment_details (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

CREATE TABLE client_ids (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  client_id text NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX client_ids_client_id ON client_ids (client_id, position);
CREATE INDEX client_ids_position ON client_ids (position);

-- Wallet books: one per account; addresses, currencies and spenders in lower case.
CREATE TABLE wallet_balances (
  account_id text NOT NULL,
  address text NOT NULL,
  currency text NOT NULL,
  position bigserial NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (account_id, address, currency)
);

CREATE TABLE wallet_allowances (
  account_id text NOT NULL,
  address text NOT NULL,
  currency text NOT NULL,
  spender text NOT NULL,
  position bigserial NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (account_id, address, currency, spender)
);

CREATE TABLE sandbox_clocks (
  account_id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

-- The outbox. Sequences are taken at commit, under a lock, so they follow commit order.
CREATE TABLE events (
  sequence bigint PRIMARY KEY,
  record jsonb NOT NULL
);
CREATE SEQUENCE events_sequence OWNED BY events.sequence;

CREATE TABLE outbox_cursors (
  consumer text PRIMARY KEY,
  sequence bigint NOT NULL
);

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  account_id text NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, position);

-- Deliveries are the queue: pending ones are claimed by due time with FOR UPDATE SKIP LOCKED.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  account_id text NOT NULL,
  endpoint_id text NOT NULL,
  event_id text NOT NULL,
  request_id text,
  state text NOT NULL,
  due_at timestamptz,
  lease_until timestamptz,
  record jsonb NOT NULL,
  CONSTRAINT webhook_deliveries_one_per_event_and_endpoint UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_position ON webhook_deliveries (position);
CREATE INDEX webhook_deliveries_account ON webhook_deliveries (account_id, position);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, position);
CREATE INDEX webhook_deliveries_request ON webhook_deliveries (request_id, position);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id, position);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (due_at, position) WHERE state = 'pending';

-- Down Migration

DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
DROP TABLE outbox_cursors;
DROP TABLE events;
DROP TABLE sandbox_clocks;
DROP TABLE wallet_allowances;
DROP TABLE wallet_balances;
DROP TABLE client_ids;
DROP TABLE payment_details;
DROP TABLE payers;
DROP TABLE recurring_payments;
DROP TABLE secure_payments;
DROP TABLE requests;

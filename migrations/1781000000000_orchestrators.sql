-- Up Migration

-- Orchestrators of each account. The key is kept as its SHA-256 hash only, found by that hash.
CREATE TABLE orchestrators (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  key_hash text NOT NULL,
  account_id text NOT NULL,
  record jsonb NOT NULL
);
CREATE UNIQUE INDEX orchestrators_key_hash ON orchestrators (key_hash);
CREATE INDEX orchestrators_account ON orchestrators (account_id, position);

-- Client IDs linked to orchestrators: one link per orchestrator and client ID.
CREATE TABLE orchestrator_client_id_links (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  orchestrator_id text NOT NULL,
  client_id_id text NOT NULL,
  status text NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX orchestrator_client_id_links_orchestrator ON orchestrator_client_id_links (orchestrator_id, position);
CREATE UNIQUE INDEX orchestrator_client_id_links_orchestrator_and_client_id
  ON orchestrator_client_id_links (orchestrator_id, client_id_id);
CREATE INDEX orchestrator_client_id_links_active_client_id ON orchestrator_client_id_links (client_id_id, position)
  WHERE status = 'active';

-- Link intents, read by their token when completed.
CREATE TABLE client_id_link_intents (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  access_token text NOT NULL,
  orchestrator_id text NOT NULL,
  record jsonb NOT NULL
);
CREATE UNIQUE INDEX client_id_link_intents_access_token ON client_id_link_intents (access_token);
CREATE INDEX client_id_link_intents_orchestrator ON client_id_link_intents (orchestrator_id, position);

CREATE TABLE orchestrator_fee_configs (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  orchestrator_id text NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX orchestrator_fee_configs_orchestrator ON orchestrator_fee_configs (orchestrator_id, position);

-- One branding per orchestrator and one per linked client ID (parent).
CREATE TABLE orchestrator_brandings (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  orchestrator_id text NOT NULL,
  parent text NOT NULL,
  record jsonb NOT NULL
);
CREATE UNIQUE INDEX orchestrator_brandings_parent ON orchestrator_brandings (orchestrator_id, parent);

-- Webhook endpoints now say whose events they get: the account's (every endpoint made before
-- this migration) or one orchestrator's.
ALTER TABLE webhook_endpoints ADD COLUMN scope text NOT NULL DEFAULT 'account';
ALTER TABLE webhook_endpoints ALTER COLUMN scope DROP DEFAULT;
ALTER TABLE webhook_endpoints ADD COLUMN orchestrator_id text;
UPDATE webhook_endpoints SET record = record || '{"scope": "account"}'::jsonb WHERE NOT record ? 'scope';
DROP INDEX webhook_endpoints_account;
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, position) WHERE scope = 'account';
CREATE INDEX webhook_endpoints_orchestrator ON webhook_endpoints (orchestrator_id, position)
  WHERE orchestrator_id IS NOT NULL;

-- Down Migration

DROP INDEX webhook_endpoints_orchestrator;
DELETE FROM webhook_endpoints WHERE scope <> 'account';
DROP INDEX webhook_endpoints_account;
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, position);
ALTER TABLE webhook_endpoints DROP COLUMN orchestrator_id;
ALTER TABLE webhook_endpoints DROP COLUMN scope;
DROP TABLE orchestrator_brandings;
DROP TABLE orchestrator_fee_configs;
DROP TABLE client_id_link_intents;
DROP TABLE orchestrator_client_id_links;
DROP TABLE orchestrators;

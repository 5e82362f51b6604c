-- Up Migration

-- Lists of one account's requests (payment search, recurring progress), oldest first.
ALTER TABLE requests ADD COLUMN account_id text;
UPDATE requests SET account_id = record->>'accountId';
ALTER TABLE requests ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX requests_account ON requests (account_id, position);

-- Lists of one payer's payment details, oldest first.
ALTER TABLE payment_details ADD COLUMN account_id text, ADD COLUMN client_user_id text;
UPDATE payment_details SET account_id = record->>'accountId', client_user_id = record->>'clientUserId';
ALTER TABLE payment_details ALTER COLUMN account_id SET NOT NULL, ALTER COLUMN client_user_id SET NOT NULL;
CREATE INDEX payment_details_payer ON payment_details (account_id, client_user_id, position);

CREATE TABLE payment_intents (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

-- Down Migration

DROP TABLE payment_intents;
DROP INDEX payment_details_payer;
ALTER TABLE payment_details DROP COLUMN account_id, DROP COLUMN client_user_id;
DROP INDEX requests_account;
ALTER TABLE requests DROP COLUMN account_id;

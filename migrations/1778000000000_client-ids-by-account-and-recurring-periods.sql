-- Up Migration

-- Lists of one account's client IDs, oldest first.
ALTER TABLE client_ids ADD COLUMN account_id text;
UPDATE client_ids SET account_id = record->>'accountId';
ALTER TABLE client_ids ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX client_ids_account ON client_ids (account_id, position);

-- The periods of one recurring payment (its progress), oldest first; null for other requests.
ALTER TABLE requests ADD COLUMN recurring_payment_id text;
UPDATE requests SET recurring_payment_id = record->>'recurringPaymentId';
CREATE INDEX requests_recurring_payment ON requests (recurring_payment_id, position)
  WHERE recurring_payment_id IS NOT NULL;

-- Down Migration

DROP INDEX requests_recurring_payment;
ALTER TABLE requests DROP COLUMN recurring_payment_id;
DROP INDEX client_ids_account;
ALTER TABLE client_ids DROP COLUMN account_id;

-- Up Migration

-- Commerce payments (preview), keyed by the id of the request each was created with.
CREATE TABLE commerce_payments (
  request_id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

-- Down Migration

DROP TABLE commerce_payments;

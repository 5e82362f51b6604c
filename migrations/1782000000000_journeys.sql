-- Up Migration

-- Payment journeys: tracking ids of one account each.
CREATE TABLE journeys (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

-- The steps processors report for a journey, listed in the order they were reported; a step may
-- be found by its transaction reference within the journeys of one account.
CREATE TABLE journey_events (
  id text PRIMARY KEY,
  position bigserial NOT NULL,
  journey_id text NOT NULL,
  account_id text NOT NULL,
  tx_reference text,
  record jsonb NOT NULL
);
CREATE INDEX journey_events_journey ON journey_events (journey_id, position);
CREATE INDEX journey_events_tx_reference ON journey_events (account_id, tx_reference, position)
  WHERE tx_reference IS NOT NULL;

-- Down Migration

DROP TABLE journey_events;
DROP TABLE journeys;

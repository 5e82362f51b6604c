-- Up Migration

-- Payment detection on a local chain: the last block read of each chain, and each contract log
-- handled (by `<chainId>:<txHash>:<logIndex>`), so that a log is recorded at most once, whichever
-- instance reads it and however often the server restarts.
CREATE TABLE chain_cursors (
  chain_id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

CREATE TABLE chain_logs (
  log_id text PRIMARY KEY,
  position bigserial NOT NULL,
  record jsonb NOT NULL
);

-- Down Migration

DROP TABLE chain_logs;
DROP TABLE chain_cursors;

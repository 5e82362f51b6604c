-- Up Migration

-- Requests now record how they were created: the Origin of the client ID that created them
-- (`origin`) and whether a secure payment link did (`createdThroughSecurePayment`), which their
-- `.client_id` and `.checkout` webhooks report. Both live in the record; no column reads them.
-- Requests recorded before kept neither: those of a link are marked as the link's, and their
-- Origin stays unknown (absent, read as null).
UPDATE requests
  SET record = record || '{"createdThroughSecurePayment": true}'::jsonb
  WHERE coalesce(record->>'securePaymentToken', '') <> ''
    AND NOT (record ? 'createdThroughSecurePayment');

-- Down Migration

UPDATE requests SET record = record - 'createdThroughSecurePayment' - 'origin';

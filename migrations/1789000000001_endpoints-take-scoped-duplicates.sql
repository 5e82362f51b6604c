-- Up Migration

-- The scoped duplicates of the payment events (payment.confirmed.client_id, ...) and
-- secure_payment.access_rejected are now sent, each an event of its own that an endpoint receives
-- only if it lists it. An endpoint made to receive every event (it lists all eleven earlier
-- ones, as endpoints made without a list and the Auth API's webhooks do) is given the five, so
-- that it keeps receiving every event.
UPDATE webhook_endpoints
  SET record = jsonb_set(
    record,
    '{events}',
    (record->'events') || '["payment.confirmed.client_id", "payment.partial.client_id", "payment.confirmed.checkout", "payment.partial.checkout", "secure_payment.access_rejected"]'::jsonb
  )
  WHERE record->'events' @> '["payment.confirmed", "payment.partial", "payment.failed", "payment.processing", "payment.refunded", "request.recurring", "compliance.updated", "payment_detail.updated", "secure_payment.user_event", "client_id.linked", "kyt.screening.completed"]'::jsonb
    AND NOT (record->'events' @> '["payment.confirmed.client_id"]'::jsonb);

-- Down Migration

UPDATE webhook_endpoints
  SET record = jsonb_set(
    record,
    '{events}',
    (record->'events') - 'payment.confirmed.client_id' - 'payment.partial.client_id' - 'payment.confirmed.checkout' - 'payment.partial.checkout' - 'secure_payment.access_rejected'
  );

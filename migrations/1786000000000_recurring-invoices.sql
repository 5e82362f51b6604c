-- Up Migration

-- The first requests of one account's recurring invoices, oldest first; null for other requests.
ALTER TABLE requests ADD COLUMN recurring_invoice_of text;
UPDATE requests
  SET record = jsonb_set(record, '{recurringInvoiceOf}', to_jsonb(record->>'accountId'))
  WHERE jsonb_typeof(record->'recurrence') = 'object'
    AND coalesce(record->>'originalRequestId', '') = '';
UPDATE requests SET recurring_invoice_of = record->>'recurringInvoiceOf';
CREATE INDEX requests_recurring_invoices ON requests (recurring_invoice_of, position)
  WHERE recurring_invoice_of IS NOT NULL;

-- Down Migration

DROP INDEX requests_recurring_invoices;
ALTER TABLE requests DROP COLUMN recurring_invoice_of;

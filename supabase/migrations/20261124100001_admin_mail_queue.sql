-- Mail the database asks for (issue 15: "Confirming or declining notifies the booker: a mail always").
-- A trigger cannot send mail, so it queues one here, in the same transaction as the change it reports:
-- no change without its mail, no mail without its change. The server's product-mail job
-- (server/functions/product-mail.ts) claims queued rows, hands them to the mailer every other mail
-- uses (SMTP, or the DATA_DIR/mail outbox) and marks them sent (decision 101).

create table if not exists private.mail_queue (
  id bigint generated always as identity primary key,
  to_email text not null constraint mail_queue_to_email_format check (private.is_email(to_email)),
  -- The mail's kind, recorded as X-HighGrade-Mail-Type (e.g. 'booking_status').
  type text not null constraint mail_queue_type_format check (type ~ '^[a-z][a-z0-9_]{0,49}$'),
  subject text not null constraint mail_queue_subject_length check (char_length(subject) between 1 and 200),
  -- Plain text paragraphs; the server escapes them into the HTML version.
  body text not null constraint mail_queue_body_length check (char_length(body) between 1 and 5000),
  -- A path on the site the mail links to ("/booking#my-bookings"), or null.
  link text constraint mail_queue_link_format check (link is null or link ~ '^/([^/\\[:space:]][^[:space:]]*)?$'),
  created_at timestamptz not null default now(),
  claimed_at timestamptz,
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text
);

create index if not exists mail_queue_unsent_idx on private.mail_queue (id) where sent_at is null;
revoke all on table private.mail_queue from public, anon, authenticated, service_role;

-- Queues one mail; SECURITY DEFINER so that triggers running as an API role can queue what they may
-- not read. Not granted to the API roles.
create or replace function private.queue_mail(to_email text, type text, subject text, body text, link text)
returns void
language sql volatile security definer set search_path = ''
as $$
  insert into private.mail_queue (to_email, type, subject, body, link)
  select queue_mail.to_email, queue_mail.type, left(queue_mail.subject, 200), left(queue_mail.body, 5000), queue_mail.link
  where private.is_email(queue_mail.to_email)
$$;
revoke all on function private.queue_mail(text, text, text, text, text) from public;

/**
 * What the database's refusals mean to the person filling a form (issue 34, decision 180): ONE mapping from
 * each rule the tables behind the admin and member forms enforce — check constraints by name, the rules
 * their triggers raise (`raise exception using constraint = …`) — to the field it concerns (the column, as
 * the form's input is named: useForm's fieldName) and a sentence for people.
 *
 * A refusal found here is final: sending the same values again is refused the same way, so a form says so
 * (`refusalNote`) instead of "please try again". `tests/integration/form-refusals.test.ts` walks the
 * catalog and fails when a table a form writes gains a rule this mapping does not explain.
 */

export interface Refusal {
  /** The column (input name) the rule concerns; null when it concerns the whole row. */
  field: string | null;
  message: string;
}

/** Said beside a refusal: the same values will be refused again (retrying cannot help). */
export function refusalNote(refusal: Refusal, shownAtField: boolean): string {
  return shownAtField
    ? 'Saving again as it is will be refused the same way: change the marked field.'
    : `${refusal.message} Saving again as it is will be refused the same way.`;
}

const at = (field: string | null, message: string): Refusal => ({ field, message });
const length = (field: string, label: string, min: number, max: number): Refusal =>
  at(
    field,
    min <= 1 ? `${label} must be 1 to ${max} characters.` : `${label} must be ${min} to ${max} characters.`,
  );
const atMost = (field: string, label: string, max: number): Refusal =>
  at(field, `${label} may be at most ${max} characters.`);
const script = (field: string, label: string): Refusal =>
  at(field, `${label} may not contain script markup (<script>, on…= handlers or javascript: links).`);
const html = (field: string, label: string): Refusal => at(field, `${label} may not contain HTML tags.`);
const choose = (field: string, label: string): Refusal => at(field, `Choose ${label} from the list.`);
const percent = (field: string, label: string): Refusal => at(field, `${label} must be between 0 and 100 %.`);
const sanitised = (field: string, label: string): Refusal =>
  at(field, `${label} may not contain HTML, script markup or control characters.`);

/** Every rule of the tables the forms write, by the name the database gives it. */
export const REFUSALS: Readonly<Record<string, Refusal>> = {
  // admin_posts (admin › Posts, through functions/v1/admin-post-save)
  admin_posts_title_length: length('title', 'The title', 1, 200),
  admin_posts_title_markup: script('title', 'The title'),
  admin_posts_content_length: length('content', 'The content', 1, 20000),
  admin_posts_content_markup: script('content', 'The content'),
  admin_posts_body_html_length: at(
    'content',
    'The content renders to more than 200,000 characters: shorten it.',
  ),
  admin_posts_media_urls_format: at('media_urls', 'Every image must be an http:// or https:// address.'),
  admin_posts_publish_at_range: at('publish_at', 'The publish time must be between the years 2000 and 2100.'),
  admin_posts_status_check: choose('status', 'a status'),

  // Samples refuse members' rows (decision 175): the guard's sentences, raised by supabase/definitions/samples_rule.sql.
  samples_guard_product_votes: at(
    null,
    'Sample products cannot be voted on: they are examples, deleted when the first real product is added.',
  ),
  samples_guard_product_comments: at(
    'content',
    'Sample products cannot be commented on: they are examples, deleted when the first real product is added.',
  ),
  samples_guard_products: at(
    'brand_id',
    'A real product cannot belong to a sample brand: sample brands are deleted when real content arrives. Choose a real brand.',
  ),
  samples_guard_brand_claims: at(
    null,
    'Sample brands cannot be claimed: they are examples, deleted when real brands are added.',
  ),
  samples_guard_scammer_reports: at(
    'brand_id',
    'A report cannot name a sample brand: sample brands are examples, deleted when real brands are added.',
  ),
  samples_guard_saved_articles: at(
    null,
    'Sample articles cannot be saved: they are examples, deleted when the first real article arrives.',
  ),

  // scammer_reports review (decision 195): a second person publishes, with a summary.
  scammer_reports_not_own_review: at(
    null,
    'You filed this report: another admin has to review, redact and publish it.',
  ),
  // Decision 238: nor its evidence, nor the replies about it.
  scammer_report_evidence_not_own_review: at(
    null,
    'You filed this report: another admin has to review its evidence.',
  ),
  scammer_report_replies_not_own_review: at(
    null,
    'You filed this report: another admin has to decide the replies about it.',
  ),
  scammer_reports_published_with_summary: at(
    'public_summary',
    "Write the reviewers' summary before publishing: readers see it above the report.",
  ),

  // scammer_report_masks (admin › Reports: masked spans, decision 197)
  scammer_report_masks_field_check: choose('field', 'the field to mask'),
  scammer_report_masks_kind_check: choose('kind', 'a kind of mask'),
  scammer_report_masks_state_check: at('state', 'A masked span is proposed, kept or unmasked.'),
  scammer_report_masks_range: at(
    'start_at',
    'A span starts at character 0 or later and ends after it starts: choose at least one character.',
  ),
  scammer_report_masks_within_text: at(
    'end_at',
    'The span lies outside the text of this field: choose characters within it.',
  ),
  scammer_report_masks_no_overlap: at(
    'start_at',
    'This span overlaps a span already masked in this field: unmask that one or choose other characters.',
  ),
  scammer_report_masks_span_fixed: at(
    null,
    'A masked span cannot be moved: unmask it and mask the new span.',
  ),
  scammer_report_masks_decided: at(
    'state',
    'Keep or unmask the span: a decided span cannot become a proposal again.',
  ),
  scammer_reports_masks_undecided: at(
    null,
    'Keep or unmask each proposed mask before publishing: nobody has checked that personal data yet.',
  ),

  // products (admin › Products)
  products_name_length: length('name', 'The name', 1, 200),
  products_name_markup: script('name', 'The name'),
  products_description_length: atMost('description', 'The description', 4000),
  products_description_markup: script('description', 'The description'),
  products_category_check: choose('category', 'a category'),
  products_strain_type_check: choose('strain_type', 'a strain type'),
  products_thc_min_range: percent('thc_min', 'THC from'),
  products_thc_max_range: percent('thc_max', 'THC to'),
  products_thc_order: at('thc_max', 'THC "to" must be at least THC "from".'),
  products_cbd_min_range: percent('cbd_min', 'CBD from'),
  products_cbd_max_range: percent('cbd_max', 'CBD to'),
  products_cbd_order: at('cbd_max', 'CBD "to" must be at least CBD "from".'),
  products_image_url_format: at('image_url', 'The image must be an http:// or https:// address.'),
  products_id_format: at(null, 'The product id is not valid.'),

  // brands, brand_licences, brand_claims (admin › Brands, the brand page's claim and edit forms)
  brands_slug_key: at('slug', 'Another brand already uses this address (slug). Choose another.'),
  brands_slug_format: at(
    'slug',
    'The address (slug) may hold only lower-case letters, digits and single hyphens.',
  ),
  brands_name_length: length('name', 'The name', 1, 120),
  brands_name_markup: script('name', 'The name'),
  brands_description_length: atMost('description', 'The description', 4000),
  brands_description_markup: script('description', 'The description'),
  brands_logo_url_format: at('logo_url', 'The logo must be an https:// address of an image.'),
  brands_website_format: at('website', 'The website must be a full http:// or https:// address.'),
  brands_social_links_format: at(
    'social_links',
    'Each social link must be a full http:// or https:// address (at most 10).',
  ),
  brands_states_format: at('states', 'Choose states by their two-letter codes.'),
  brands_city_format: at('city', 'The city must be 1 to 120 characters, without HTML.'),
  brands_categories_format: choose('categories', 'categories'),
  brands_licence_number_format: at(
    'licence_number',
    'The licence number may hold letters, digits, spaces and . / # - (at most 64).',
  ),
  brands_licence_state_format: at('licence_state', 'The licence state must be a two-letter code.'),
  brands_licence_type_format: at(
    'licence_type',
    'The licence type must be 1 to 100 characters, without HTML.',
  ),
  brands_verification_check: choose('verification', 'a verification state'),
  brands_verified_complete: at(
    'verification',
    'A verified licence needs its number, issuing state, the verification date and an evidence note.',
  ),
  brands_verification_note_format: at(
    'verification_note',
    'The evidence note may be at most 2000 characters, without script markup.',
  ),
  brands_verified_at_not_future: at('verified_at', 'The verification date cannot be in the future.'),
  brands_merged_into_other: at('merged_into', 'A brand cannot be merged into itself.'),
  brand_licences_number_format: at(
    'number',
    'The licence number may hold letters, digits, spaces and . / # - (at most 64).',
  ),
  brand_licences_state_format: at('state', 'The licence state must be a two-letter code.'),
  brand_licences_type_format: at('type', 'The licence type must be 1 to 100 characters, without HTML.'),
  brand_licences_verification_check: choose('verification', 'a verification state'),
  brand_licences_verified_complete: at(
    'verification',
    'A verified licence needs the verification date and an evidence note.',
  ),
  brand_licences_verification_note_format: at(
    'verification_note',
    'The evidence note may be at most 2000 characters, without script markup.',
  ),
  brand_licences_verified_at_not_future: at('verified_at', 'The verification date cannot be in the future.'),
  brand_licences_per_brand: at(null, 'A brand lists at most 20 licences.'),
  brand_licences_number_key: at(
    'number',
    'This brand already lists a licence with this number from this state.',
  ),
  brand_claims_role_title_length: at('role_title', 'Say your role at the brand in 2 to 100 characters.'),
  brand_claims_role_title_markup: html('role_title', 'Your role'),
  brand_claims_message_length: atMost('message', 'The message', 2000),
  brand_claims_message_markup: script('message', 'The message'),
  brand_claims_decision_note_format: at(
    'decision_note',
    'The note may be at most 2000 characters, without script markup.',
  ),
  brand_claims_status_check: choose('status', 'a claim state'),
  brand_claims_status_flow: at('status', 'A claim cannot move to this state from its current one.'),
  brand_claims_brand_live: at(null, 'This brand is archived and cannot be claimed.'),
  brand_claims_open_key: at(null, 'You already have a pending or approved claim for this brand.'),

  // news_sources (admin › News sources)
  news_sources_name_length: length('name', 'The name', 1, 120),
  news_sources_name_markup: html('name', 'The name'),
  news_sources_category_length: length('category', 'The category', 1, 40),
  news_sources_category_markup: html('category', 'The category'),
  news_sources_feed_url_format: at('feed_url', 'The feed must be a full http:// or https:// address.'),
  news_sources_feed_url_key: at('feed_url', 'Another source already reads this feed.'),
  news_sources_etag_length: atMost('etag', 'The feed’s ETag', 500),
  news_sources_last_error_length: atMost('last_error', 'The last error', 500),
  news_sources_last_modified_length: atMost('last_modified', 'The feed’s Last-Modified', 100),
  news_sources_last_status_check: choose('last_status', 'a fetch status'),
  news_sources_origin_length: atMost('origin', 'The origin', 500),

  // bookings (Book a promo session; admin › Bookings)
  bookings_full_name_length: length('full_name', 'Full name', 2, 100),
  bookings_full_name_markup: at('full_name', 'Full name may not contain HTML or script markup.'),
  bookings_email_format: at('email', 'Please enter a valid email address.'),
  bookings_phone_format: at('phone', 'Please enter a valid phone number.'),
  bookings_company_name_length: length('company_name', 'Company name', 1, 200),
  bookings_company_name_markup: script('company_name', 'Company name'),
  bookings_product_name_length: length('product_name', 'Product name', 1, 200),
  bookings_product_name_markup: script('product_name', 'Product name'),
  bookings_product_category_check: choose('product_category', 'a product category'),
  bookings_product_description_length: length('product_description', 'Product description', 1, 2000),
  bookings_product_description_markup: script('product_description', 'Product description'),
  bookings_special_requests_length: length('special_requests', 'Special requests', 1, 2000),
  bookings_special_requests_markup: script('special_requests', 'Special requests'),
  bookings_booking_date_format: at('booking_date', 'Choose a date from the calendar.'),
  bookings_booking_date_not_past: at('booking_date', 'A booking date cannot be in the past.'),
  bookings_booking_date_within_year: at('booking_date', 'A booking date can be at most one year ahead.'),
  bookings_booking_date_not_today: at(
    'booking_date',
    'Promo sessions are booked at least one day ahead. Please choose a later date.',
  ),
  bookings_booking_time_slot: choose('booking_time', 'a time'),
  bookings_slot_taken: at('booking_time', 'This time is already booked. Please choose another time.'),
  bookings_one_confirmed_per_slot: at(
    'status',
    'Another booking is already confirmed for this date and time.',
  ),
  bookings_status_check: choose('status', 'a booking state'),
  bookings_status_flow: at('status', 'A booking cannot move to this state from its current one.'),
  // admin_update_booking (admin › Bookings: the internal note, kept in private.booking_notes)
  booking_notes_note_length: at('note', 'The internal note can be at most 2000 characters.'),

  // scammer_reports, evidence, replies, watches (Scammer Network forms; admin › Reports)
  scammer_reports_scammer_name_length: length('scammer_name', 'Scammer name', 2, 100),
  scammer_reports_scammer_name_characters: at(
    'scammer_name',
    'Scammer name may not contain control characters.',
  ),
  scammer_reports_scammer_description_length: length('scammer_description', 'Scammer description', 10, 1000),
  scammer_reports_scammer_description_sanitised: sanitised('scammer_description', 'Scammer description'),
  scammer_reports_incident_details_length: length('incident_details', 'Incident details', 20, 2000),
  scammer_reports_incident_details_sanitised: sanitised('incident_details', 'Incident details'),
  scammer_reports_location_length: length('location', 'Location', 2, 200),
  scammer_reports_location_sanitised: sanitised('location', 'Location'),
  scammer_reports_business_name_length: length('business_name', 'Business name', 2, 200),
  scammer_reports_business_name_characters: at(
    'business_name',
    'Business name may not contain control characters.',
  ),
  scammer_reports_truth_confirmed: at(
    'truth_confirmed',
    'Confirm that your report is true to the best of your knowledge.',
  ),
  scammer_reports_contact_info_length: length('contact_info', 'Contact info', 5, 500),
  scammer_reports_contact_info_sanitised: sanitised('contact_info', 'Contact info'),
  scammer_reports_amount_scammed_range: at(
    'amount_scammed',
    'The amount must be a positive number with at most two decimals, below one trillion.',
  ),
  scammer_reports_date_of_incident_range: at('date_of_incident', 'The incident date must be after 1970.'),
  scammer_reports_date_of_incident_not_future: at(
    'date_of_incident',
    'Incident date cannot be in the future.',
  ),
  scammer_reports_public_summary_length: length('public_summary', 'The public summary', 1, 2000),
  scammer_reports_public_summary_markup: script('public_summary', 'The public summary'),
  scammer_reports_rejection_reason_length: length('rejection_reason', 'The rejection reason', 5, 1000),
  scammer_reports_rejection_reason_markup: script('rejection_reason', 'The rejection reason'),
  scammer_reports_rejected_with_reason: at(
    'rejection_reason',
    'A rejection needs a reason: the reporter is told why.',
  ),
  scammer_reports_redacted_fields_known: choose('redacted_fields', 'the fields to redact'),
  scammer_reports_status_check: choose('status', 'a report state'),
  scammer_reports_status_flow: at('status', 'A report cannot move to this state from its current one.'),
  scammer_reports_not_merged_into_itself: at('merged_into', 'A report cannot be merged into itself.'),
  scammer_reports_merge_target: at(
    'merged_into',
    'A report can be merged only into a published report that is not merged itself, and not when others are merged into it.',
  ),
  scammer_report_evidence_content_type_check: at(
    'evidence',
    'File type not allowed. Evidence may be JPEG, PNG, WebP, GIF or PDF.',
  ),
  scammer_report_evidence_file_name_characters: at(
    'evidence',
    'The file name may not contain control characters.',
  ),
  scammer_report_evidence_file_name_length: at('evidence', 'The file name must be 1 to 255 characters.'),
  scammer_report_evidence_object_name_format: at(
    'evidence',
    'The evidence file must be stored with its report.',
  ),
  scammer_report_evidence_object_name_unique: at('evidence', 'This evidence file is already attached.'),
  scammer_report_evidence_limit: at('evidence', 'A report can have up to 5 evidence files.'),
  scammer_report_evidence_approved_cleaned: at(
    'evidence',
    'This file has no copy without metadata yet, so it cannot be approved.',
  ),
  scammer_report_replies_body_length: length('body', 'Your reply', 20, 2000),
  scammer_report_replies_body_markup: script('body', 'Your reply'),
  scammer_report_replies_kind_check: choose('kind', 'what you are asking for'),
  scammer_report_replies_relation_check: choose('relation', 'how you are related to the report'),
  scammer_report_replies_status_check: choose('status', 'a reply state'),
  scammer_report_replies_note_length: length('decision_note', 'The note', 5, 1000),
  scammer_report_replies_note_markup: script('decision_note', 'The note'),
  scammer_report_replies_declined_with_note: at(
    'decision_note',
    'Declining needs a note: the sender is told why.',
  ),
  scammer_report_replies_status_flow: at('status', 'A reply cannot move to this state from its current one.'),
  scammer_report_replies_published: at(
    null,
    'This report is not published: replies can be sent only about a published report.',
  ),
  scammer_report_replies_not_reporter: at(
    null,
    'You reported this: replies are for the people and businesses named in a report.',
  ),
  scammer_report_replies_one_pending: at(
    null,
    'You already have a request waiting for review on this report.',
  ),
  scammer_watches_value_length: length('value', 'What you watch', 2, 200),
  scammer_watches_value_markup: script('value', 'What you watch'),
  scammer_watches_kind_check: choose('kind', 'what to watch'),
  scammer_watches_once: at('value', 'You already watch this.'),
  scammer_watches_value_format: at(
    'value',
    'Enter a name, business, phone number, email address or website to watch.',
  ),
  scammer_watches_limit: at(null, 'You can watch up to 20 names, businesses and contact details.'),

  // profiles, privacy_settings (Profile)
  profiles_full_name_length: length('full_name', 'Full name', 2, 100),
  profiles_full_name_markup: at('full_name', 'Full name may not contain HTML or script markup.'),
  profiles_username_format: at(
    'username',
    'A username is 1 to 64 letters, digits, _ . or - and starts with a letter, digit or _.',
  ),
  profiles_bio_length: length('bio', 'The bio', 1, 1000),
  profiles_bio_markup: script('bio', 'The bio'),
  profiles_email_format: at('email', 'Please enter a valid email address.'),
  profiles_avatar_url_format: at('avatar_url', 'The avatar must be an http:// or https:// address.'),
  privacy_settings_profile_visibility_check: choose('profile_visibility', 'who sees your profile'),
  privacy_settings_inactive_period_months_check: choose('inactive_period_months', 'a period'),

  // product_comments (Pass or Gas comments)
  product_comments_content_length: length('content', 'A comment', 1, 2000),
  product_comments_content_markup: script('content', 'A comment'),
  product_comments_product_id_format: at(null, 'There is no product with this id.'),
  product_comment_reports_reason_length: atMost('reason', 'The reason', 500),
  product_comment_reports_reason_markup: script('reason', 'The reason'),
  product_comment_reports_comment_id_reporter_id_key: at(null, 'You have already reported this comment.'),
};

function stringProperty(value: unknown, key: string): string {
  if (value && typeof value === 'object' && key in value) {
    const property = (value as Record<string, unknown>)[key];
    if (typeof property === 'string') return property;
  }
  return typeof value === 'string' && key === 'message' ? value : '';
}

/**
 * The rule names a refusal may carry, most precise first: a `constraint` property (the server's own
 * functions), a code that is a rule name (functions/v1 answers `{error: <constraint>}`), or the name
 * quoted in PostgreSQL's message or details (`violates check constraint "products_thc_order"`).
 */
function namesIn(error: unknown): string[] {
  const names = [stringProperty(error, 'constraint'), stringProperty(error, 'code')];
  for (const text of [stringProperty(error, 'message'), stringProperty(error, 'details')]) {
    for (const match of text.matchAll(/"([a-z0-9_]+)"/g)) names.push(match[1] ?? '');
    for (const match of text.matchAll(/\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b/g)) names.push(match[1] ?? '');
  }
  return names.filter(Boolean);
}

/**
 * The rules whose refusal arrives as the trigger's own sentence (PostgREST sends the message, not the
 * constraint): matched by their text. Sentences with values in them (`format(…)`) match by pattern.
 */
const RAISED: ReadonlyArray<readonly [RegExp, string]> = Object.entries(REFUSALS).map(([name, refusal]) => [
  new RegExp(`^${refusal.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  name,
]);
const RAISED_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Another booking is already confirmed for .+ at .+\.$/, 'bookings_one_confirmed_per_slot'],
  [/^A \w+ claim cannot become \w+\.$/, 'brand_claims_status_flow'],
  [/^A \w+ reply cannot be marked \w+\.$/, 'scammer_report_replies_status_flow'],
  [/^A \w+ booking cannot be marked \w+\.$/, 'bookings_status_flow'],
  [/^A \w+ report cannot be marked \w+\.$/, 'scammer_reports_status_flow'],
  [/^An evidence file lies in its report's folder\.$/, 'scammer_report_evidence_object_name_format'],
  [/^Enter a phone number with its area code/, 'scammer_watches_value_format'],
  [/^Enter an email address\.$/, 'scammer_watches_value_format'],
  [/^Enter a website address such as /, 'scammer_watches_value_format'],
  [/^A report can be merged only into a published report/, 'scammer_reports_merge_target'],
  [/^Other reports are merged into this one/, 'scammer_reports_merge_target'],
];

/** The rule a refusal broke, in people's words and at its field; null when it is not a rule of ours. */
export function refusalOf(error: unknown): Refusal | null {
  for (const name of namesIn(error)) {
    const refusal = REFUSALS[name];
    if (refusal) return refusal;
  }
  const message = stringProperty(error, 'message').trim();
  if (!message) return null;
  for (const [pattern, name] of [...RAISED, ...RAISED_PATTERNS]) {
    if (pattern.test(message)) {
      const refusal = REFUSALS[name];
      // A raised sentence with values in it says more than the generic one: keep it.
      if (refusal) return { field: refusal.field, message };
    }
  }
  return null;
}

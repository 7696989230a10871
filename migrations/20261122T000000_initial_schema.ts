// The whole data model of spec 01-03, designed once so later work adds behaviour, not churn.
// Conventions: snake_case names; every tenant table has company_id NOT NULL with indexes that
// start with it; synced tables carry `version`; booleans are integers 0/1 on both dialects;
// times are ISO-8601 UTC (TEXT on SQLite, timestamptz on PostgreSQL); money in integer cents.
import { sql, type Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const d = dialectOf(db);
  const c = columns(d);
  const create = (name: string) => db.schema.createTable(name);
  const index = (name: string, table: string, cols: string[], unique = false) => {
    const b = db.schema.createIndex(name).on(table).columns(cols);
    return (unique ? b.unique() : b).execute();
  };

  // ── Platform: plans, companies, settings, users, sessions ──────────────────────
  await c.version(c.stamps(c.id(create('plans'))
    .addColumn('name', 'text', (x) => x.notNull().unique())
    .addColumn('users', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('connections', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('queues', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('value_cents', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('use_campaigns', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('use_schedules', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('use_internal_chat', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('use_external_api', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('use_kanban', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('use_open_ai', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('use_integrations', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('is_public', 'integer', (x) => x.notNull().defaultTo(1)))).execute();

  await c.version(c.stamps(c.time(c.time(c.id(create('companies'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('plan_id', 'integer', (x) => x.references('plans.id').onDelete('restrict'))
    .addColumn('status', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('recurrence', 'text', (x) => x.notNull().defaultTo('MENSAL'))
    .addColumn('schedules', 'text', (x) => x.notNull().defaultTo('[]'))
    .addColumn('document', 'text')
    .addColumn('payment_method', 'text')
    .addColumn('address_zip', 'text')
    .addColumn('address_street', 'text')
    .addColumn('address_number', 'text')
    .addColumn('address_district', 'text')
    .addColumn('address_city', 'text')
    .addColumn('address_state', 'text'), 'due_date'), 'trial_expiration'))).execute();
  await index('companies_name', 'companies', ['name']);

  await c.version(c.stamps(c.company(c.id(create('settings')))
    .addColumn('key', 'text', (x) => x.notNull())
    .addColumn('value', 'text', (x) => x.notNull()))).execute();
  await index('settings_company_key', 'settings', ['company_id', 'key'], true);

  await c.version(c.stamps(c.time(c.bool(c.bool(c.bool(c.company(c.id(create('users')))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('email', 'text', (x) => x.notNull())
    .addColumn('password_hash', 'text', (x) => x.notNull())
    .addColumn('profile', 'text', (x) => x.notNull().defaultTo('user'))
    .addColumn('whatsapp_id', 'integer')
    .addColumn('all_ticket', 'text', (x) => x.notNull().defaultTo('desabled'))
    .addColumn('language', 'text'), 'super'), 'show_no_queue'), 'online'), 'last_seen_at'))).execute();
  // Login is by email alone, so an email names one account on the whole platform.
  await index('users_email', 'users', ['email'], true);
  await index('users_company_name', 'users', ['company_id', 'name']);

  await c.time(c.time(c.stamps(c.company(create('user_sessions')
    .addColumn('id', 'text', (x) => x.primaryKey())
    .addColumn('user_id', 'integer', (x) => x.notNull().references('users.id').onDelete('cascade'))
    .addColumn('revoked_reason', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text'))), 'revoked_at'), 'last_used_at').execute();
  await index('user_sessions_company_user', 'user_sessions', ['company_id', 'user_id']);

  await c.time(c.time(c.stamps(c.company(c.id(create('refresh_tokens'))
    .addColumn('session_id', 'text', (x) => x.notNull().references('user_sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (x) => x.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (x) => x.notNull().unique()))), 'expires_at', (x) => x.notNull()), 'used_at').execute();
  await index('refresh_tokens_company_session', 'refresh_tokens', ['company_id', 'session_id']);

  await c.time(c.time(c.stamps(c.company(c.id(create('password_resets'))
    .addColumn('user_id', 'integer', (x) => x.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (x) => x.notNull())
    .addColumn('attempts', 'integer', (x) => x.notNull().defaultTo(0)))), 'expires_at', (x) => x.notNull()), 'used_at').execute();
  await index('password_resets_company_user', 'password_resets', ['company_id', 'user_id']);

  await c.version(c.stamps(c.id(create('helps')
    .addColumn('title', 'text', (x) => x.notNull())
    .addColumn('description', 'text')
    .addColumn('video', 'text')
    .addColumn('link', 'text')))).execute();

  // ── Queues and connections ───────────────────────────────────────────────────────
  await c.version(c.stamps(c.company(c.id(create('queue_integrations'))
    .addColumn('type', 'text', (x) => x.notNull())
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('project_name', 'text')
    .addColumn('json_content', 'text')
    .addColumn('language', 'text')
    .addColumn('url_n8n', 'text')
    .addColumn('typebot_slug', 'text')
    .addColumn('typebot_expires', 'integer', (x) => x.notNull().defaultTo(1))
    .addColumn('typebot_keyword_finish', 'text')
    .addColumn('typebot_keyword_restart', 'text')
    .addColumn('typebot_unknown_message', 'text')
    .addColumn('typebot_restart_message', 'text')
    .addColumn('typebot_delay_message', 'integer', (x) => x.notNull().defaultTo(1000))))).execute();
  await index('queue_integrations_company_name', 'queue_integrations', ['company_id', 'name']);

  await c.version(c.stamps(c.company(c.id(create('queues'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('color', 'text', (x) => x.notNull())
    .addColumn('greeting_message', 'text')
    .addColumn('complation_message', 'text')
    .addColumn('out_of_hours_message', 'text')
    .addColumn('rating_message', 'text')
    .addColumn('order_queue', 'integer')
    .addColumn('schedules', 'text', (x) => x.notNull().defaultTo('[]'))
    .addColumn('integration_id', 'integer', (x) => x.references('queue_integrations.id').onDelete('set null'))
    .addColumn('prompt_id', 'integer')))).execute();
  await index('queues_company_name', 'queues', ['company_id', 'name'], true);
  await index('queues_company_color', 'queues', ['company_id', 'color'], true);

  await c.version(c.stamps(c.company(c.id(create('queue_options'))
    .addColumn('queue_id', 'integer', (x) => x.notNull().references('queues.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (x) => x.references('queue_options.id').onDelete('cascade'))
    .addColumn('title', 'text', (x) => x.notNull())
    .addColumn('message', 'text')
    .addColumn('option', 'integer', (x) => x.notNull())))).execute();
  await index('queue_options_company_queue_parent', 'queue_options', ['company_id', 'queue_id', 'parent_id']);

  await c.company(create('user_queues')
    .addColumn('user_id', 'integer', (x) => x.notNull().references('users.id').onDelete('cascade'))
    .addColumn('queue_id', 'integer', (x) => x.notNull().references('queues.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_queues_pk', ['user_id', 'queue_id'])).execute();
  await index('user_queues_company_queue', 'user_queues', ['company_id', 'queue_id']);

  await c.version(c.stamps(c.time(c.bool(c.company(c.id(create('whatsapps')))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('status', 'text', (x) => x.notNull().defaultTo('DISCONNECTED'))
    .addColumn('qrcode', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('retries', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('number', 'text')
    .addColumn('token', 'text')
    .addColumn('provider', 'text', (x) => x.notNull().defaultTo('beta'))
    .addColumn('greeting_message', 'text')
    .addColumn('complation_message', 'text')
    .addColumn('out_of_hours_message', 'text')
    .addColumn('rating_message', 'text')
    .addColumn('expires_inactive_message', 'text')
    .addColumn('expires_ticket', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('time_use_bot_queues', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('max_use_bot_queues', 'integer', (x) => x.notNull().defaultTo(3))
    .addColumn('time_to_transfer', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('transfer_queue_id', 'integer', (x) => x.references('queues.id').onDelete('set null'))
    .addColumn('prompt_id', 'integer')
    .addColumn('integration_id', 'integer', (x) => x.references('queue_integrations.id').onDelete('set null'))
    .addColumn('schedules', 'text', (x) => x.notNull().defaultTo('[]'))
    .addColumn('lease_owner', 'text'), 'is_default'), 'lease_expires_at'))).execute();
  await index('whatsapps_company_name', 'whatsapps', ['company_id', 'name']);
  await index('whatsapps_token', 'whatsapps', ['token'], true);

  await c.company(create('whatsapp_queues')
    .addColumn('whatsapp_id', 'integer', (x) => x.notNull().references('whatsapps.id').onDelete('cascade'))
    .addColumn('queue_id', 'integer', (x) => x.notNull().references('queues.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('whatsapp_queues_pk', ['whatsapp_id', 'queue_id'])).execute();
  await index('whatsapp_queues_company_queue', 'whatsapp_queues', ['company_id', 'queue_id']);

  await c.stamps(c.company(create('baileys_creds')
    .addColumn('whatsapp_id', 'integer', (x) => x.primaryKey().references('whatsapps.id').onDelete('cascade'))
    .addColumn('creds', 'text', (x) => x.notNull()))).execute();
  await c.company(create('baileys_keys')
    .addColumn('whatsapp_id', 'integer', (x) => x.notNull().references('whatsapps.id').onDelete('cascade'))
    .addColumn('type', 'text', (x) => x.notNull())
    .addColumn('key_id', 'text', (x) => x.notNull())
    .addColumn('value', 'text', (x) => x.notNull())
    .addPrimaryKeyConstraint('baileys_keys_pk', ['whatsapp_id', 'type', 'key_id'])).execute();
  await index('baileys_keys_company', 'baileys_keys', ['company_id', 'whatsapp_id']);

  // ── Contacts, tickets, messages ──────────────────────────────────────────────────
  await c.version(c.stamps(c.bool(c.bool(c.company(c.id(create('contacts'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('number', 'text', (x) => x.notNull())
    .addColumn('jid', 'text')
    .addColumn('lid', 'text')
    .addColumn('email', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('profile_pic_url', 'text')
    .addColumn('whatsapp_id', 'integer', (x) => x.references('whatsapps.id').onDelete('set null'))
    .addColumn('import_key', 'text')), 'is_group'), 'disable_bot'))).execute();
  await index('contacts_company_number', 'contacts', ['company_id', 'number'], true);
  await index('contacts_company_name', 'contacts', ['company_id', 'name']);
  await index('contacts_company_lid', 'contacts', ['company_id', 'lid']);
  await index('contacts_company_created', 'contacts', ['company_id', 'created_at']);

  await c.version(c.stamps(c.company(c.id(create('contact_custom_fields'))
    .addColumn('contact_id', 'integer', (x) => x.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('value', 'text', (x) => x.notNull().defaultTo(''))))).execute();
  await index('contact_custom_fields_company_contact', 'contact_custom_fields', ['company_id', 'contact_id']);

  await c.version(c.stamps(c.time(c.time(c.bool(c.bool(c.bool(c.bool(c.company(c.id(create('tickets'))
    .addColumn('uuid', 'text', (x) => x.notNull().unique())
    .addColumn('status', 'text', (x) => x.notNull().defaultTo('pending'))
    .addColumn('contact_id', 'integer', (x) => x.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('queue_id', 'integer', (x) => x.references('queues.id').onDelete('set null'))
    .addColumn('whatsapp_id', 'integer', (x) => x.references('whatsapps.id').onDelete('set null'))
    .addColumn('queue_option_id', 'integer', (x) => x.references('queue_options.id').onDelete('set null'))
    .addColumn('last_message', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('unread_messages', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('amount_used_bot_queues', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('prompt_id', 'integer')
    .addColumn('integration_id', 'integer', (x) => x.references('queue_integrations.id').onDelete('set null'))
    .addColumn('typebot_session_id', 'text')
    .addColumn('flow_id', 'integer')
    .addColumn('flow_node_id', 'text')
    .addColumn('flow_data', 'text')
    .addColumn('code', 'text')), 'is_group'), 'chatbot'), 'use_integration'), 'awaiting_rating'), 'last_interaction_at'), 'closed_at'))).execute();
  await index('tickets_company_status_updated', 'tickets', ['company_id', 'status', 'updated_at']);
  await index('tickets_company_contact', 'tickets', ['company_id', 'contact_id', 'whatsapp_id', 'status']);
  await index('tickets_company_queue', 'tickets', ['company_id', 'queue_id', 'status']);
  await index('tickets_company_user', 'tickets', ['company_id', 'user_id', 'status']);

  await c.version(c.stamps(c.company(c.id(create('tags'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('color', 'text', (x) => x.notNull().defaultTo('#A4CCCC'))
    .addColumn('kanban', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))))).execute();
  await index('tags_company_name', 'tags', ['company_id', 'name'], true);

  await c.stamps(c.company(create('ticket_tags')
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (x) => x.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('ticket_tags_pk', ['ticket_id', 'tag_id']))).execute();
  await index('ticket_tags_company_tag', 'ticket_tags', ['company_id', 'tag_id']);

  await c.version(c.stamps(c.company(c.id(create('ticket_notes'))
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (x) => x.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('note', 'text', (x) => x.notNull())))).execute();
  await index('ticket_notes_company_ticket', 'ticket_notes', ['company_id', 'ticket_id']);
  await index('ticket_notes_company_contact', 'ticket_notes', ['company_id', 'contact_id']);

  await c.stamps(c.time(c.time(c.time(c.time(c.time(c.time(c.company(c.id(create('ticket_trackings'))
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('whatsapp_id', 'integer', (x) => x.references('whatsapps.id').onDelete('set null'))
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('queue_id', 'integer', (x) => x.references('queues.id').onDelete('set null'))
    .addColumn('rating', 'integer')), 'queued_at'), 'started_at'), 'finished_at'), 'rated_at'), 'chatbot_at'), 'transferred_at')).execute();
  await index('ticket_trackings_company_created', 'ticket_trackings', ['company_id', 'created_at']);
  await index('ticket_trackings_company_ticket', 'ticket_trackings', ['company_id', 'ticket_id']);

  await c.stamps(c.company(c.id(create('user_ratings'))
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('rate', 'integer', (x) => x.notNull()))).execute();
  await index('user_ratings_company_user', 'user_ratings', ['company_id', 'user_id', 'created_at']);

  await c.version(c.stamps(c.bool(c.bool(c.bool(c.bool(c.company(c.id(create('messages'))
    .addColumn('wid', 'text', (x) => x.notNull())
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (x) => x.references('contacts.id').onDelete('set null'))
    .addColumn('whatsapp_id', 'integer', (x) => x.references('whatsapps.id').onDelete('set null'))
    .addColumn('body', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('media_type', 'text')
    .addColumn('media_url', 'text')
    .addColumn('ack', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('quoted_msg_id', 'integer', (x) => x.references('messages.id').onDelete('set null'))
    .addColumn('participant', 'text')
    .addColumn('data', 'text')), 'from_me'), 'read'), 'is_deleted'), 'is_edited'))).execute();
  // A redelivered message is a no-op: (connection, WhatsApp id) is unique.
  await index('messages_company_whatsapp_wid', 'messages', ['company_id', 'whatsapp_id', 'wid'], true);
  await index('messages_company_ticket_created', 'messages', ['company_id', 'ticket_id', 'created_at']);

  if (d === 'sqlite') {
    // External-content FTS5 index over message bodies and contact names, kept by triggers.
    await sql`CREATE VIRTUAL TABLE messages_fts USING fts5(body, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(db);
    await sql`CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body); END`.execute(db);
    await sql`CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body); END`.execute(db);
    await sql`CREATE TRIGGER messages_fts_au AFTER UPDATE OF body ON messages BEGIN INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body); INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body); END`.execute(db);
    await sql`CREATE VIRTUAL TABLE contacts_fts USING fts5(name, number, content='contacts', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(db);
    await sql`CREATE TRIGGER contacts_fts_ai AFTER INSERT ON contacts BEGIN INSERT INTO contacts_fts(rowid, name, number) VALUES (new.id, new.name, new.number); END`.execute(db);
    await sql`CREATE TRIGGER contacts_fts_ad AFTER DELETE ON contacts BEGIN INSERT INTO contacts_fts(contacts_fts, rowid, name, number) VALUES ('delete', old.id, old.name, old.number); END`.execute(db);
    await sql`CREATE TRIGGER contacts_fts_au AFTER UPDATE OF name, number ON contacts BEGIN INSERT INTO contacts_fts(contacts_fts, rowid, name, number) VALUES ('delete', old.id, old.name, old.number); INSERT INTO contacts_fts(rowid, name, number) VALUES (new.id, new.name, new.number); END`.execute(db);
  } else {
    await sql`ALTER TABLE messages ADD COLUMN body_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(body, ''))) STORED`.execute(db);
    await sql`CREATE INDEX messages_body_tsv ON messages USING gin (body_tsv)`.execute(db);
    await sql`ALTER TABLE contacts ADD COLUMN name_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(name, '') || ' ' || coalesce(number, ''))) STORED`.execute(db);
    await sql`CREATE INDEX contacts_name_tsv ON contacts USING gin (name_tsv)`.execute(db);
  }

  // ── Daily tools ──────────────────────────────────────────────────────────────────
  await c.version(c.stamps(c.bool(c.bool(c.company(c.id(create('quick_messages'))
    .addColumn('shortcode', 'text', (x) => x.notNull())
    .addColumn('message', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('media_path', 'text')
    .addColumn('media_name', 'text')
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('cascade'))), 'geral'), 'status', 1))).execute();
  await index('quick_messages_company_shortcode', 'quick_messages', ['company_id', 'shortcode']);

  await c.version(c.stamps(c.time(c.time(c.time(c.company(c.id(create('schedules'))
    .addColumn('body', 'text', (x) => x.notNull())
    .addColumn('contact_id', 'integer', (x) => x.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('ticket_id', 'integer', (x) => x.references('tickets.id').onDelete('set null'))
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (x) => x.notNull().defaultTo('PENDENTE'))
    .addColumn('error', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('media_path', 'text')
    .addColumn('media_name', 'text')), 'send_at', (x) => x.notNull()), 'sent_at'), 'claimed_at'))).execute();
  await index('schedules_company_send_at', 'schedules', ['company_id', 'send_at']);
  await index('schedules_status_send_at', 'schedules', ['status', 'send_at']);

  await c.version(c.stamps(c.bool(c.company(c.id(create('announcements'))
    .addColumn('priority', 'integer', (x) => x.notNull().defaultTo(3))
    .addColumn('title', 'text', (x) => x.notNull())
    .addColumn('text', 'text', (x) => x.notNull())
    .addColumn('media_path', 'text')
    .addColumn('media_name', 'text')), 'status', 1))).execute();
  await index('announcements_company_created', 'announcements', ['company_id', 'created_at']);

  await c.version(c.stamps(c.company(c.id(create('chats'))
    .addColumn('uuid', 'text', (x) => x.notNull().unique())
    .addColumn('title', 'text', (x) => x.notNull())
    .addColumn('owner_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('last_message', 'text', (x) => x.notNull().defaultTo(''))))).execute();
  await index('chats_company_updated', 'chats', ['company_id', 'updated_at']);

  await c.version(c.stamps(c.company(create('chat_users')
    .addColumn('chat_id', 'integer', (x) => x.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (x) => x.notNull().references('users.id').onDelete('cascade'))
    .addColumn('unreads', 'integer', (x) => x.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('chat_users_pk', ['chat_id', 'user_id'])))).execute();
  await index('chat_users_company_user', 'chat_users', ['company_id', 'user_id']);

  await c.version(c.stamps(c.company(c.id(create('chat_messages'))
    .addColumn('chat_id', 'integer', (x) => x.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('sender_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('message', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('media_path', 'text')
    .addColumn('media_name', 'text')))).execute();
  await index('chat_messages_company_chat_created', 'chat_messages', ['company_id', 'chat_id', 'created_at']);

  // ── Campaigns, contact lists, files ──────────────────────────────────────────────
  await c.version(c.stamps(c.company(c.id(create('contact_lists'))
    .addColumn('name', 'text', (x) => x.notNull())))).execute();
  await index('contact_lists_company_name', 'contact_lists', ['company_id', 'name']);

  await c.version(c.stamps(c.company(c.id(create('contact_list_items'))
    .addColumn('contact_list_id', 'integer', (x) => x.notNull().references('contact_lists.id').onDelete('cascade'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('number', 'text', (x) => x.notNull())
    .addColumn('email', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('is_whatsapp_valid', 'integer')))).execute();
  await index('contact_list_items_company_list_number', 'contact_list_items', ['company_id', 'contact_list_id', 'number'], true);

  await c.version(c.stamps(c.company(c.id(create('files'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('message', 'text', (x) => x.notNull().defaultTo(''))))).execute();
  await index('files_company_name', 'files', ['company_id', 'name']);

  await c.version(c.stamps(c.company(c.id(create('files_options'))
    .addColumn('file_id', 'integer', (x) => x.notNull().references('files.id').onDelete('cascade'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('path', 'text', (x) => x.notNull())
    .addColumn('media_type', 'text')))).execute();
  await index('files_options_company_file', 'files_options', ['company_id', 'file_id']);

  await c.version(c.stamps(c.time(c.time(c.bool(c.company(c.id(create('campaigns'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('status', 'text', (x) => x.notNull().defaultTo('INATIVA'))
    .addColumn('message1', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('message2', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('message3', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('message4', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('message5', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('confirmation_message1', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('confirmation_message2', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('confirmation_message3', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('confirmation_message4', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('confirmation_message5', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('whatsapp_id', 'integer', (x) => x.references('whatsapps.id').onDelete('set null'))
    .addColumn('contact_list_id', 'integer', (x) => x.references('contact_lists.id').onDelete('set null'))
    .addColumn('tag_id', 'integer', (x) => x.references('tags.id').onDelete('set null'))
    .addColumn('file_list_id', 'integer', (x) => x.references('files.id').onDelete('set null'))
    .addColumn('media_path', 'text')
    .addColumn('media_name', 'text')), 'confirmation'), 'scheduled_at'), 'completed_at'))).execute();
  await index('campaigns_company_status', 'campaigns', ['company_id', 'status']);

  await c.version(c.stamps(c.company(c.id(create('campaign_settings'))
    .addColumn('key', 'text', (x) => x.notNull())
    .addColumn('value', 'text', (x) => x.notNull())))).execute();
  await index('campaign_settings_company_key', 'campaign_settings', ['company_id', 'key'], true);

  await c.stamps(c.time(c.time(c.time(c.time(c.time(c.bool(c.company(c.id(create('campaign_shippings'))
    .addColumn('campaign_id', 'integer', (x) => x.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('contact_list_item_id', 'integer', (x) => x.references('contact_list_items.id').onDelete('set null'))
    .addColumn('number', 'text', (x) => x.notNull())
    .addColumn('message', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('confirmation_message', 'text', (x) => x.notNull().defaultTo(''))
    .addColumn('attempts', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('claimed_by', 'text')), 'confirmation'), 'due_at'), 'claimed_at'), 'delivered_at'), 'confirmation_requested_at'), 'confirmed_at')).execute();
  await index('campaign_shippings_company_campaign_number', 'campaign_shippings', ['company_id', 'campaign_id', 'number'], true);
  await index('campaign_shippings_due', 'campaign_shippings', ['delivered_at', 'due_at']);

  // ── AI, integrations, flows ──────────────────────────────────────────────────────
  await c.version(c.stamps(c.company(c.id(create('prompts'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('prompt', 'text', (x) => x.notNull())
    .addColumn('model', 'text', (x) => x.notNull().defaultTo('gpt-3.5-turbo-1106'))
    .addColumn('max_tokens', 'integer', (x) => x.notNull().defaultTo(100))
    .addColumn('temperature', c.real, (x) => x.notNull().defaultTo(1))
    .addColumn('max_messages', 'integer', (x) => x.notNull().defaultTo(10))
    .addColumn('api_key_enc', 'text', (x) => x.notNull())
    .addColumn('queue_id', 'integer', (x) => x.references('queues.id').onDelete('set null'))
    .addColumn('voice', 'text', (x) => x.notNull().defaultTo('texto'))
    .addColumn('voice_key', 'text')
    .addColumn('voice_region', 'text')))).execute();
  await index('prompts_company_name', 'prompts', ['company_id', 'name']);

  await c.version(c.stamps(c.bool(c.company(c.id(create('flows'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('flow', 'text')), 'active', 1))).execute();
  await index('flows_company_name', 'flows', ['company_id', 'name']);

  await c.version(c.stamps(c.bool(c.company(c.id(create('flow_campaigns'))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('flow_id', 'integer', (x) => x.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('whatsapp_id', 'integer', (x) => x.references('whatsapps.id').onDelete('set null'))
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))
    .addColumn('phrase', 'text', (x) => x.notNull())), 'status', 1))).execute();
  await index('flow_campaigns_company_phrase', 'flow_campaigns', ['company_id', 'phrase']);

  // ── Billing ──────────────────────────────────────────────────────────────────────
  await c.version(c.stamps(c.time(c.time(c.company(c.id(create('invoices'))
    .addColumn('detail', 'text', (x) => x.notNull())
    .addColumn('value_cents', 'integer', (x) => x.notNull())
    .addColumn('status', 'text', (x) => x.notNull().defaultTo('open'))
    .addColumn('txid', 'text')
    .addColumn('pix_code', 'text')), 'due_date', (x) => x.notNull()), 'paid_at'))).execute();
  await index('invoices_company_due', 'invoices', ['company_id', 'due_date']);
  await index('invoices_txid', 'invoices', ['txid'], true);

  // ── Sync (Replicache row versioning) ─────────────────────────────────────────────
  await c.stamps(c.company(create('replicache_client_groups')
    .addColumn('id', 'text', (x) => x.primaryKey())
    .addColumn('user_id', 'integer', (x) => x.notNull().references('users.id').onDelete('cascade'))
    .addColumn('cvr_version', 'integer', (x) => x.notNull().defaultTo(0)))).execute();
  await index('replicache_client_groups_company_user', 'replicache_client_groups', ['company_id', 'user_id']);

  await c.stamps(c.company(create('replicache_clients')
    .addColumn('id', 'text', (x) => x.primaryKey())
    .addColumn('client_group_id', 'text', (x) => x.notNull().references('replicache_client_groups.id').onDelete('cascade'))
    .addColumn('last_mutation_id', 'integer', (x) => x.notNull().defaultTo(0)))).execute();
  await index('replicache_clients_company_group', 'replicache_clients', ['company_id', 'client_group_id']);

  // One row per (client group, CVR version): the (key → version) map the client was sent.
  await c.stamps(c.company(create('replicache_cvrs')
    .addColumn('client_group_id', 'text', (x) => x.notNull().references('replicache_client_groups.id').onDelete('cascade'))
    .addColumn('version', 'integer', (x) => x.notNull())
    .addColumn('entries', 'text', (x) => x.notNull())
    .addPrimaryKeyConstraint('replicache_cvrs_pk', ['client_group_id', 'version']))).execute();
  await index('replicache_cvrs_company_group', 'replicache_cvrs', ['company_id', 'client_group_id']);

  // Business errors of processed mutations, reported to the client that sent them.
  await c.stamps(c.company(c.id(create('replicache_mutation_errors'))
    .addColumn('client_id', 'text', (x) => x.notNull().references('replicache_clients.id').onDelete('cascade'))
    .addColumn('mutation_id', 'integer', (x) => x.notNull())
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('code', 'text', (x) => x.notNull())
    .addColumn('message', 'text', (x) => x.notNull()))).execute();
  await index('replicache_mutation_errors_company_client', 'replicache_mutation_errors', ['company_id', 'client_id', 'mutation_id']);
}

export async function down(): Promise<void> {
  throw new Error('The initial schema has no down migration: restore a backup instead.');
}

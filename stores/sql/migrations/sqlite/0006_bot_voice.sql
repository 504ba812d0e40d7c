-- Voice of a bot's own texts (refusal, uncertainty, notices): formal "Sie" unless the bot says "du";
-- contact: how users reach a person; without it no text invites them to get in touch.
ALTER TABLE bots ADD COLUMN voice text NOT NULL DEFAULT 'sie' CONSTRAINT chk_bot_voice CHECK (voice IN ('sie', 'du'));
ALTER TABLE bots ADD COLUMN contact text;

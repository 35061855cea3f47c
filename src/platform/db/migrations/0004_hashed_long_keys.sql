-- Entity keys longer than 64 UTF-8 bytes are stored as '#' + the base64url SHA-256 of the key
-- (src/modules/ledger/domain/keys.ts, storedKey): a transaction's fingerprint key holds its whole normalized
-- description, and the key index was several times wider than it needs to be. Ids still derive from the
-- keys themselves, so none changes.
UPDATE "ledger_entity_keys"
   SET "key" = '#' || rtrim(translate(encode(sha256(convert_to("key", 'UTF8')), 'base64'), '+/', '-_'), '=')
 WHERE octet_length("key") > 64;

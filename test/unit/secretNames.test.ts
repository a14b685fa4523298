// The one secret-name rule (issue 41, item 4): what people name secret fields, in any style and
// the common languages, and the ordinary words it must leave alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { looksSecret, messageAsksSecret } from '../../src/shared/secretNames';

// [key, title?, description?]
const SECRET: readonly (readonly [string, (string | undefined)?, string?])[] = [
  // Case and separator styles.
  ['PassWord'],
  ['PASSWORD'],
  ['pass_word'],
  ['pass-word'],
  ['Pass Word'],
  ['userPassword'],
  ['DB_PASSWORD'],
  ['password1'],
  // Short and compound forms.
  ['pass'],
  ['db_pass'],
  ['userPass'],
  ['pass2'],
  ['pw'],
  ['db_pw'],
  ['pwd'],
  ['passwd'],
  ['passphrase'],
  ['privKey'],
  ['private_key'],
  ['pin'],
  ['card_pin'],
  ['userPin'],
  ['code', 'PIN'],
  // Codes.
  ['mfa'],
  ['mfa_code'],
  ['mfaCode'],
  ['totp'],
  ['otp'],
  ['2fa'],
  ['2fa_code'],
  ['twoFactorCode'],
  ['verification_code'],
  ['verificationCode'],
  ['recovery_code'],
  ['recoveryCodes'],
  ['backup_code'],
  ['one_time_code'],
  ['oneTimePassword'],
  ['sms_code'],
  ['login_code'],
  ['code', 'Verification code'],
  // Credential words.
  ['session_token'],
  ['sessionToken'],
  ['cookie'],
  ['session_cookie'],
  ['jwt'],
  ['bearer'],
  ['bearer_token'],
  ['authorization'],
  ['Authorization'],
  ['connection_string'],
  ['connectionString'],
  ['database_url'],
  ['DATABASE_URL'],
  ['dsn'],
  ['SENTRY_DSN'],
  ['api_key'],
  ['apiKey'],
  ['X-API-Key'],
  ['secret'],
  ['client_secret'],
  ['access_token'],
  ['refresh_token'],
  ['credential'],
  ['aws', 'AWS secret access key'],
  // "password" in other languages.
  ['Passwort'],
  ['Kennwort'],
  ['neues_Passwort'],
  ['contraseña'],
  ['Contraseña'],
  ['senha'],
  ['mot_de_passe'],
  ['field', 'Mot de passe'],
  ['field', "Parola d'ordine"],
  ['пароль'],
  ['field', 'Введите пароль'],
  ['hasło'],
  ['wachtwoord'],
  ['密码'],
  ['field', '请输入密码'],
  ['パスワード'],
  ['비밀번호'],
  ['şifre'],
  ['lösenord'],
  ['field', 'Código de verificación'],
  // Said in the texts only.
  ['note', 'Note', 'Enter your password here'],
  ['value', undefined, 'The one-time code from your authenticator app'],
];

const HARMLESS: readonly (readonly [string, (string | undefined)?, string?])[] = [
  ['tokenizer'],
  ['max_tokens'],
  ['maxTokens'],
  ['input_tokens'],
  ['tokenCount'],
  ['secretary'],
  ['role', 'Secretary name'],
  ['passwordless'],
  ['login', 'Passwordless login'],
  ['passport'],
  ['passportNumber'],
  ['compass'],
  ['bypass'],
  ['bypassCache'],
  ['passenger'],
  ['pinned'],
  ['pinned', 'Pin this note'],
  ['pipeline'],
  ['spin', 'Spin speed'],
  ['keyboard', 'Keyboard layout'],
  ['monkey'],
  ['username'],
  ['email', 'Email address'],
  ['code'],
  ['zip_code'],
  ['country_code'],
  ['source_code', 'Code to review'],
  ['boarding_pass'],
  ['first_pass'],
  ['pass_rate'],
  ['author'],
  ['authority'],
  ['accept_cookies', 'Accept cookies?'],
  ['mfa_enabled'],
  ['password_length', 'Password length'],
  ['has_password'],
  ['secret_name'],
  ['token_type'],
  ['sessions'],
  ['description', undefined, 'Do this one time only'],
];

void describe('looksSecret: one rule for every protection', () => {
  for (const [key, title, description] of SECRET) {
    void it(`flags ${JSON.stringify([key, title, description].filter((x) => x !== undefined))}`, () => {
      assert.equal(looksSecret(key, title, description), true);
    });
  }
  for (const [key, title, description] of HARMLESS) {
    void it(`does not flag ${JSON.stringify([key, title, description].filter((x) => x !== undefined))}`, () => {
      assert.equal(looksSecret(key, title, description), false);
    });
  }
});

void describe('messageAsksSecret: what a one-field form says it asks for', () => {
  for (const message of [
    'Enter the 6-digit code we texted you',
    'Enter the code we sent to your email',
    'Enter your password',
    'Verification code',
    'Type the code from your authenticator app',
    'Bitte Passwort eingeben',
  ]) {
    void it(`flags ${JSON.stringify(message)}`, () => assert.equal(messageAsksSecret(message), true));
  }
  for (const message of [
    'Which branch?',
    'Enter the country code',
    'Paste the code you want reviewed',
    'How many tokens may the reply use?',
  ]) {
    void it(`does not flag ${JSON.stringify(message)}`, () => assert.equal(messageAsksSecret(message), false));
  }
});

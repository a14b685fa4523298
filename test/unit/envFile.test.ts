import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEnvFile } from '../../src/config/parse/envFile';

describe('envFile: dotenv format', () => {
  it('drops the quotes and the comment of A="v" # comment', () => {
    assert.deepEqual(parseEnvFile('A="v" # comment\n'), { A: 'v' });
    assert.deepEqual(parseEnvFile("B='single' # c\n"), { B: 'single' });
    assert.deepEqual(parseEnvFile('C=`tick`\n'), { C: 'tick' });
  });

  it('keeps a quoted value that spans lines whole, and reads the next key after it', () => {
    const text = 'KEY="-----BEGIN KEY-----\nline two\n-----END KEY-----"\nNEXT=after\n';
    assert.deepEqual(parseEnvFile(text), { KEY: '-----BEGIN KEY-----\nline two\n-----END KEY-----', NEXT: 'after' });
  });

  it('cuts a comment after an unquoted value, but keeps # inside quotes', () => {
    assert.deepEqual(parseEnvFile('URL=http://x/y # the endpoint\nHASH="a#b"\n'), { URL: 'http://x/y', HASH: 'a#b' });
  });

  it('expands \\n only inside double quotes', () => {
    assert.deepEqual(parseEnvFile('D="a\\nb"\nS=\'a\\nb\'\nU=a\\nb\n'), { D: 'a\nb', S: 'a\\nb', U: 'a\\nb' });
  });

  it('reads export, blank lines, comment lines, CRLF, spaces around =, and empty values', () => {
    const text = '# header\r\n\r\nexport TOKEN=abc\r\n  SPACED = value  \r\nEMPTY=\r\nEMPTY_QUOTED=""\r\n';
    assert.deepEqual(parseEnvFile(text), { TOKEN: 'abc', SPACED: 'value', EMPTY: '', EMPTY_QUOTED: '' });
  });

  it('takes the last of repeated keys and ignores lines that are not assignments', () => {
    assert.deepEqual(parseEnvFile('X=1\nnot an assignment\nX=2\n'), { X: '2' });
  });

  it('does not substitute ${VAR} references (the value is passed as written)', () => {
    assert.deepEqual(parseEnvFile('HOME_COPY=${HOME}\n'), { HOME_COPY: '${HOME}' });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stdioLaunch, untildify, type LaunchContext, type StdioLaunchInput } from '../../src/servers/launch';

// The expectations are VS Code's own launcher (extHostMcpNode.ts `startNodeMpc`), case by case.
const linux: LaunchContext = {
  hostEnv: { PATH: '/usr/bin:/bin', HOME: '/home/ada', GH_TOKEN: 'from-shell', SSL_CERT_FILE: '/etc/ca.pem' },
  platform: 'linux',
  home: '/home/ada',
  folder: '/ws/app',
};
const win: LaunchContext = {
  hostEnv: { Path: 'C:\\Windows', USERPROFILE: 'C:\\Users\\ada' },
  platform: 'win32',
  home: 'C:\\Users\\ada',
  folder: 'C:\\ws\\app',
};
const server = (over: Partial<StdioLaunchInput> = {}): StdioLaunchInput => ({ command: 'node', args: ['server.js'], env: {}, ...over });

void describe('stdioLaunch: the environment', () => {
  void it('the whole host environment reaches the server (a token and the CA bundle the shell set included)', () => {
    const { env } = stdioLaunch(server(), linux);
    assert.equal(env['GH_TOKEN'], 'from-shell');
    assert.equal(env['SSL_CERT_FILE'], '/etc/ca.pem');
    assert.equal(env['PATH'], '/usr/bin:/bin');
  });

  void it('PATH in env is appended with the platform delimiter, never put in place of the PATH', () => {
    assert.equal(stdioLaunch(server({ env: { PATH: '/opt/tool/bin' } }), linux).env['PATH'], '/usr/bin:/bin:/opt/tool/bin');
    assert.equal(stdioLaunch(server({ env: { PATH: '/opt/tool/bin' } }), { ...linux, hostEnv: {} }).env['PATH'], '/opt/tool/bin');
  });

  void it('on Windows, PATH in env extends the host\'s Path (one variable, any case) with ";"', () => {
    const { env } = stdioLaunch(server({ env: { PATH: 'C:\\tools' } }), win);
    assert.equal(env['Path'], 'C:\\Windows;C:\\tools');
    assert.equal(env['PATH'], undefined, 'not a second variable');
  });

  void it('null removes a variable from the host environment; other values replace it', () => {
    const { env } = stdioLaunch(server({ env: { GH_TOKEN: null, SSL_CERT_FILE: '/other.pem' } }), linux);
    assert.equal(Object.hasOwn(env, 'GH_TOKEN'), false);
    assert.equal(env['SSL_CERT_FILE'], '/other.pem');
  });

  void it('envFile entries apply over the host and under env; a PATH in the file replaces, one in env appends', () => {
    const { env } = stdioLaunch(
      server({ envFileValues: { PATH: '/file/bin', MODE: 'file', ONLY_FILE: '1' }, env: { MODE: 'env', PATH: '/env/bin' } }),
      linux,
    );
    assert.equal(env['MODE'], 'env');
    assert.equal(env['ONLY_FILE'], '1');
    assert.equal(env['PATH'], '/file/bin:/env/bin');
  });

  void it('does not change the host environment object it was given', () => {
    const hostEnv = { ...linux.hostEnv };
    stdioLaunch(server({ env: { GH_TOKEN: null, PATH: '/x' } }), { ...linux, hostEnv });
    assert.deepEqual(hostEnv, linux.hostEnv);
  });
});

void describe('stdioLaunch: the working directory', () => {
  void it('without cwd: the folder the definition belongs to, else the home directory', () => {
    assert.equal(stdioLaunch(server(), linux).cwd, '/ws/app');
    assert.equal(stdioLaunch(server(), { ...linux, folder: undefined }).cwd, '/home/ada');
  });

  void it('a relative cwd is joined to that folder (or home); ~ is expanded; an absolute one is kept', () => {
    assert.equal(stdioLaunch(server({ cwd: 'packages/api' }), linux).cwd, '/ws/app/packages/api');
    assert.equal(stdioLaunch(server({ cwd: 'src' }), { ...linux, folder: undefined }).cwd, '/home/ada/src');
    assert.equal(stdioLaunch(server({ cwd: '~/work' }), linux).cwd, '/home/ada/work');
    assert.equal(stdioLaunch(server({ cwd: '/srv' }), linux).cwd, '/srv');
    assert.equal(stdioLaunch(server({ cwd: 'api' }), win).cwd, 'C:\\ws\\app\\api');
  });
});

void describe('stdioLaunch: command and arguments', () => {
  void it('~ is expanded in the command and in every argument, only at the start and before a separator', () => {
    const l = stdioLaunch(server({ command: '~/bin/srv', args: ['~', '~/data', '--x=~/y', '~other/z', 'a~/b'] }), linux);
    assert.equal(l.command, '/home/ada/bin/srv');
    assert.deepEqual(l.args, ['/home/ada', '/home/ada/data', '--x=~/y', '~other/z', 'a~/b']);
  });

  void it('Windows .cmd arguments are passed through unquoted (cross-spawn escapes them for cmd.exe once)', () => {
    const l = stdioLaunch(server({ command: 'npx.cmd', args: ['-y', 'a b', '"quoted"&calc'] }), win);
    assert.deepEqual(l.args, ['-y', 'a b', '"quoted"&calc']);
  });

  void it("untildify matches VS Code's: backslash separators too, and nothing without a home", () => {
    assert.equal(untildify('~\\x', 'C:\\Users\\ada'), 'C:\\Users\\ada\\x');
    assert.equal(untildify('~/x', ''), '~/x');
  });
});
